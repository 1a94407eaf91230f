B
past_cacheJ!Ce‡