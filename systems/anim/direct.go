package anim

// ValidateDirect checks the sample count of a Direct blend.
func ValidateDirect(n int) error {
	return validateCount("Direct", "Samples", n)
}

// DirectWeights writes the caller's per-sample weights into dst, as Unity's
// Direct blend tree: negative, NaN and ±Inf weights become 0. With
// normalize the weights are divided by their sum when it is positive.
// Without it they are kept as given, and the blend (BlendPoses,
// BlendSpace.Evaluate) gives the rest pose whatever the total falls short of
// one, and normalises a total above one. Returns false and writes nothing
// for 0 or more than MaxSamples weights or a short dst.
func DirectWeights(dst []float32, weights []float32, normalize bool) bool {
	n := len(weights)
	if n == 0 || n > MaxSamples || len(dst) < n {
		return false
	}
	var sum float64
	for i, v := range weights {
		v = activeWeight(v)
		dst[i] = v
		sum += float64(v)
	}
	if normalize && sum > 0 {
		for i := range n {
			dst[i] = float32(float64(dst[i]) / sum)
		}
	}
	return true
}
