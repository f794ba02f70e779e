package main

import "github.com/petstore/contract/mockserver/admin"

// The console's event streams each hold a connection, and so a file
// descriptor. petmock caps them at a quarter of the descriptors the process
// may open, and at most admin.DefaultMaxStreams, so that three quarters
// stay for the API, the health check, the state file and the log, however
// many streams are opened.

// streamCaps returns the caps of the event streams, in all and for each
// client, for a process that may open limit descriptors, or the admin
// API's defaults when known is false.
func streamCaps(limit uint64, known bool) (all, perClient int) {
	if !known {
		return admin.DefaultMaxStreams, admin.DefaultMaxStreamsPerClient
	}
	all = int(min(limit/4, admin.DefaultMaxStreams))
	all = max(all, 1)
	return all, min(admin.DefaultMaxStreamsPerClient, all)
}
