// StatecastServer
