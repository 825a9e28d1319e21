// arbiter.hpp — umbrella header: includes the whole public API of the arbiter library.
#pragma once

#include "arbiter/attacks.hpp"
#include "arbiter/bitboard.hpp"
#include "arbiter/expected.hpp"
#include "arbiter/fen.hpp"
#include "arbiter/helpmate.hpp"
#include "arbiter/move.hpp"
#include "arbiter/movegen.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/position.hpp"
#include "arbiter/setup.hpp"
#include "arbiter/types.hpp"
#include "arbiter/unwinnability.hpp"
