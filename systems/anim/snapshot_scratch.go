package anim

// SetWeights sets the weights Scratch.Weights returns, as the last Play
// would have left them: for restoring a world snapshot, so that a game
// reading the blend weights between frames sees what it saw when the
// snapshot was taken. At most MaxSamples weights are kept.
func (sc *Scratch) SetWeights(w []float32) {
	sc.n = copy(sc.weights[:], w)
}
