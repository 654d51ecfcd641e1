package systems

// ChainsInFours switches the chain step's and apply's side-by-side work
// on four characters (on by default), for tests that compare it with
// each character alone.
var ChainsInFours = &chainsInFours
