	B
accumulateJ