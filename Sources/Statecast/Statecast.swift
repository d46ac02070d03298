// Statecast
