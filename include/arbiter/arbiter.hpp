// arbiter.hpp — umbrella header: includes the whole public API of the arbiter library (the
// journal, a separate component linking SQLite, has its own header: arbiter/journal.hpp).
#pragma once

#include "arbiter/attacks.hpp"
#include "arbiter/bitboard.hpp"
#include "arbiter/claims.hpp"
#include "arbiter/clock.hpp"
#include "arbiter/expected.hpp"
#include "arbiter/fen.hpp"
#include "arbiter/game.hpp"
#include "arbiter/move.hpp"
#include "arbiter/movegen.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/position.hpp"
#include "arbiter/procedure.hpp"
#include "arbiter/rules.hpp"
#include "arbiter/scoresheet.hpp"
#include "arbiter/session.hpp"
#include "arbiter/setup.hpp"
#include "arbiter/types.hpp"
#include "arbiter/unwinnability.hpp"
