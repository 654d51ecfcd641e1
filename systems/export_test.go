package systems

// StepInFours switches the chain step's side-by-side stepping of four
// characters (on by default), for tests that compare it with stepping
// each alone.
var StepInFours = &stepInFours
