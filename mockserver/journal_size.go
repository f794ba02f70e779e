package mockserver

// resize makes the journal keep size exchanges, and keeps the newest of
// those it holds that fit. A size of 0 keeps none.
func (j *journal) resize(size int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if size == len(j.ring) {
		return
	}
	held := j.next
	if j.full {
		held = len(j.ring)
	}
	keep := min(held, size)
	ring := make([]entry, size)
	for i := range keep {
		ring[i] = j.ring[(j.next-keep+i+len(j.ring))%len(j.ring)]
	}
	j.ring, j.next, j.full = ring, keep, false
	if size > 0 && keep == size {
		j.next, j.full = 0, true
	}
}
