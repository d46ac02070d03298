print("statecast")
