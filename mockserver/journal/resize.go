package journal

// Resize makes the journal keep size exchanges, and keeps the newest of
// those it holds that fit. A size of 0 keeps none.
func (j *Journal) Resize(size int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if size == len(j.ring) {
		return
	}
	for j.count > size {
		j.dropOldest()
	}
	ring := make([]Entry, size)
	for i := range j.count {
		ring[i] = j.ring[(j.head+i)%len(j.ring)]
	}
	j.ring, j.head = ring, 0
}
