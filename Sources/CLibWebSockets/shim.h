#ifndef STATECAST_CLIBWEBSOCKETS_SHIM_H
#define STATECAST_CLIBWEBSOCKETS_SHIM_H

// What Swift cannot import from libwebsockets 4.1 as it is: macro expressions, option
// masks built from other macros, and a plain C layout for lws-owned per-connection
// memory. Everything else is used straight from <libwebsockets.h>.

#include <libwebsockets.h>
#include <stdint.h>
#include <sys/prctl.h>

/// Names the calling thread (at most 15 bytes show) for `top -H`, `perf` and debuggers.
/// `prctl` is variadic and `pthread_setname_np` needs `_GNU_SOURCE`: Swift imports neither.
static inline void statecast_name_current_thread(const char *name) {
  prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

/// `LWS_PRE` is a macro expression Swift cannot import: the headroom lws needs before
/// every payload passed to `lws_write` to write the frame header in place.
static const unsigned int statecast_lws_pre = LWS_PRE;

/// Context and vhost options. The `LWS_SERVER_OPTION_*` values are `(1ll << n)` macros,
/// some of them or-ed with others, which Swift imports inconsistently or not at all;
/// these constants give them one type (`uint64_t`, the type of `info.options`).

/// Initialise OpenSSL once for the context: required before any TLS vhost or wss client.
static const uint64_t statecast_option_ssl_global_init = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
/// Let lws check every inbound text message for valid UTF-8, fragment by fragment, and
/// close with 1007 on the first invalid byte (RFC 6455 section 8.1).
static const uint64_t statecast_option_validate_utf8 = LWS_SERVER_OPTION_VALIDATE_UTF8;
/// Send a client's `Origin` header exactly as given (lws would otherwise prefix it with
/// `http://`, which makes an https origin unrepresentable).
static const uint64_t statecast_option_raw_origin = LWS_SERVER_OPTION_JUST_USE_RAW_ORIGIN;
/// Listen on IPv4 only, for a configured IPv4 host such as `127.0.0.1`.
static const uint64_t statecast_option_disable_ipv6 = LWS_SERVER_OPTION_DISABLE_IPV6;
/// Hand a request with an unknown method to the protocol callback as a raw socket
/// (`LWS_CALLBACK_RAW_ADOPT`, then `RAW_RX` with the bytes read) instead of answering
/// `HTTP/1.0 403`; a `CONNECT` request takes that path whatever the option. The server
/// answers both itself, in HTTP/1.1.
static const uint64_t statecast_option_fallback_to_raw = LWS_SERVER_OPTION_FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG;

/// The opcode of a close frame for `lws_write`. lws 4.1 keeps `LWS_WRITE_CLOSE` out of its
/// public `enum lws_write_protocol` (its own close goes through `lws_close_reason`), but
/// that close hangs up right after writing the frame; the server writes its close frame
/// itself and keeps reading until the peer answers (see the transport's lingering close).
static const enum lws_write_protocol statecast_write_close = (enum lws_write_protocol)4;

/// What lws keeps for each server-side WebSocket connection (`per_session_data_size`).
///
/// lws allocates and zeroes this memory and frees it without running any deinitializer,
/// so it holds plain values only: the transport's connection id and the endpoint the
/// upgrade asked for, never a Swift reference.
struct statecast_session {
  /// The transport's `ConnectionID` raw value; 0 until the connection is established.
  uint64_t connection;
  /// Which endpoint the upgrade was accepted for (the transport's `Endpoint` raw value).
  uint32_t endpoint;
  /// Set once the server has sent its close frame (or, on a raw socket, its answer) and
  /// only waits for the peer: what it still sends is read and discarded until it
  /// answers the close or hangs up (a lingering close).
  uint32_t closing;
};

#endif
