#ifndef STATECAST_CLIBWEBSOCKETS_SHIM_H
#define STATECAST_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

/// `LWS_PRE` is a macro expression Swift cannot import: the headroom lws needs before
/// every payload passed to `lws_write` to write the frame header in place.
static const unsigned int statecast_lws_pre = LWS_PRE;

#endif
