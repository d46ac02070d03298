// StatecastJSON
