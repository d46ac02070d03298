// StatecastClient
