# The sources of the library (arbiter::arbiter), for its build (CMakeLists.txt) and for the
# WebAssembly build (wasm/CMakeLists.txt). The decompressors are not here: the native build adds
# src/decoders.cpp (Zstandard, gzip, bzip2), the WebAssembly build src/decoders_none.cpp.
set(ARBITER_LIBRARY_SOURCES
  src/attacks.cpp
  src/position.cpp
  src/movegen.cpp
  src/fen.cpp
  src/notation.cpp
  src/unwinnability.cpp
  src/input.cpp
  src/pgn.cpp
  src/pgn_game.cpp
  src/rules.cpp
  src/game.cpp
  src/claims.cpp
  src/clock.cpp
  src/flag.cpp
  src/procedure.cpp
  src/session.cpp
  src/touch_move.cpp
  src/session_codec.cpp
  src/event_fields.cpp
  src/scoresheet.cpp
  src/audit.cpp
  src/helpmate.cpp
  src/helpmate/material.cpp
  src/helpmate/blockade.cpp
  src/helpmate/bishops.cpp
  src/helpmate/release.cpp
  src/helpmate/orientation.cpp
  src/helpmate/toolkit.cpp
  src/helpmate/guided.cpp
  src/helpmate/rewarded.cpp
  src/helpmate/exhaustive.cpp
  src/helpmate/fast.cpp
)
