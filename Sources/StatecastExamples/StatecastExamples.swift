// StatecastExamples
