package lifecycle

// SplitWords is splitWords, for tests.
var SplitWords = splitWords
