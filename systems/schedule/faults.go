package schedule

import "sync"

// Faults is the world resource where systems report what they recovered
// from during a frame; the facade returns Err from Step.
type Faults struct {
	mu     sync.Mutex
	Panics uint64 // job panics recovered
	Err    error  // the first error since the last Take
}

// Report records err (nil is ignored).
func (f *Faults) Report(err error) {
	if err == nil {
		return
	}
	f.mu.Lock()
	f.Panics++
	if f.Err == nil {
		f.Err = err
	}
	f.mu.Unlock()
}

// Take returns and clears the first error since the last Take.
func (f *Faults) Take() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	err := f.Err
	f.Err = nil
	return err
}
