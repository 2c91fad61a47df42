package lifecycle

// SplitWords is splitWords, for tests.
var SplitWords = splitWords

// ContainsAny is containsAny, for tests.
var ContainsAny = containsAny

// CacheLayer is cacheLayer, for tests.
var CacheLayer = cacheLayer
