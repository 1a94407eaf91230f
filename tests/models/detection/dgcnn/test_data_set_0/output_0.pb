

BlogitsJ(Ü†>°Tå<®Œx½€mC»G‘ç¾§V„¾G7¾H[ç¾4ãw½ú­<