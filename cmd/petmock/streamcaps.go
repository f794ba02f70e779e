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

// Connections hold descriptors too: petmock holds at most half of those
// it may open, so that the other half stay for its files, its
// connections to a --proxy backend and the health check, and at most
// defaultMaxConns, and at most half of those idle (see
// edge.WireLimits).
const defaultMaxConns = 10_000

// connLimits are the caps of the connections petmock holds.
type connLimits struct{ open, idle int }

// connCaps returns the caps of o's connections: those --max-conns and
// --max-idle-conns give, or the defaults for a process that may open as
// many descriptors as limit says, or defaultMaxConns where it does not
// say.
func connCaps(o options, limit func() (uint64, bool)) connLimits {
	caps := connLimits{open: o.maxConns, idle: o.maxIdleConns}
	if caps.open == 0 {
		caps.open = defaultMaxConns
		if n, known := limit(); known {
			caps.open = int(max(min(n/2, defaultMaxConns), 2))
		}
	}
	if caps.idle == 0 {
		caps.idle = max(caps.open/2, 1)
	}
	return caps
}
