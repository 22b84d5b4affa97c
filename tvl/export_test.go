package tvl

// MightSplit exposes mightSplit to the tests.
var MightSplit = mightSplit
