package systems

// ChainsSideBySide switches the chain step's and apply's side-by-side work
// (on by default), for tests that compare it with each character alone.
var ChainsSideBySide = &chainsSideBySide
