# A module of dead code only: the constant its test numbered is all there is.
while 0:
    pass
