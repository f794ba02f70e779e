package mockserver

import "time"

// SetStoreCheck sets how often the event streams of s look at the stores
// for changes no event announced, so that a test can tell an announced
// change from one the check found.
func (s *Server) SetStoreCheck(d time.Duration) { s.storeCheck = d }
