// unwinnability.hpp — "can this side still checkmate by any series of legal moves?" (FIDE
// DEF-CANMATE: a helpmate test, the opponent cooperating). The rules layer asks this through
// the Unwinnability interface to decide dead positions (5.2.2), flag falls (6.9), resignations
// (5.1.2) and second illegal moves (7.5.5), so a stronger analyzer plugs in without changing
// any caller.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arbiter/move.hpp"
#include "arbiter/names.hpp"
#include "arbiter/position.hpp"

namespace arbiter {

enum class MateAbility : std::uint8_t {
    can_checkmate,     ///< a legal sequence ending in mate by that side exists (see `line`)
    cannot_checkmate,  ///< proven: no legal sequence lets that side mate
    unknown,           ///< a resource limit was hit before either was shown
};

/// Stable name: "can_checkmate", "cannot_checkmate", "unknown".
template <>
struct EnumNames<MateAbility> {
    static constexpr auto names = std::to_array<const char*>({"can_checkmate", "cannot_checkmate", "unknown"});
};
static_assert(enum_count<MateAbility> == std::size_t(MateAbility::unknown) + 1);
constexpr const char* mate_ability_name(MateAbility a) noexcept { return enum_name(a); }

/// What a verdict rests on (machine-readable companion of MateVerdict::reason).
enum class MateProof : std::uint8_t {
    none,               ///< no proof: the answer is unknown
    already_mated,      ///< can: the side has already checkmated (the line is empty)
    mating_line,        ///< can: MateVerdict::line is a legal sequence ending in that mate
    game_over,          ///< cannot: the game is over (stalemate, or that side is checkmated)
    material,           ///< cannot: the material on the board can never give mate
    blockade,           ///< cannot: a static proof over units that can never move or be taken
    exhaustive_search,  ///< cannot: every reachable position was searched (or proven by the above)
};

/// Stable name: "none", "already_mated", "mating_line", "game_over", "material", "blockade",
/// "exhaustive_search".
template <>
struct EnumNames<MateProof> {
    static constexpr auto names = std::to_array<const char*>(
        {"none", "already_mated", "mating_line", "game_over", "material", "blockade", "exhaustive_search"});
};
static_assert(enum_count<MateProof> == std::size_t(MateProof::exhaustive_search) + 1);
constexpr const char* mate_proof_name(MateProof p) noexcept { return enum_name(p); }

struct MateVerdict {
    MateAbility answer = MateAbility::unknown;
    /// With can_checkmate: a legal line from the position that ends in checkmate by the side
    /// asked about (may be empty when that side has already mated). Empty otherwise.
    std::vector<Move> line;
    /// Why: "insufficient material", "blocked pawns", "exhaustive search", "mating line found", …
    std::string reason;
    std::uint64_t nodes = 0;            ///< positions searched (0 for static rules)
    MateProof proof = MateProof::none;  ///< what the answer rests on
};

/// Decides whether a side can still checkmate. Implementations must be sound: never
/// cannot_checkmate when a mate exists.
class Unwinnability {
public:
    virtual ~Unwinnability() = default;
    [[nodiscard]] virtual MateVerdict can_checkmate(const Position& pos, Color side) const = 0;
    /// The answer alone, for checks made after every ply (dead-position detection): analyzers
    /// override it with a path that does not build a certificate or allocate.
    [[nodiscard]] virtual MateAbility ability(const Position& pos, Color side) const {
        return can_checkmate(pos, side).answer;
    }
};

/// The sound material-only rules: a side with only a king, or a king and one minor piece facing
/// a bare king, or when all remaining non-king material is bishops on squares of one colour,
/// cannot checkmate. Everything else is `unknown` (this class does not search).
class MaterialUnwinnability final : public Unwinnability {
public:
    [[nodiscard]] MateVerdict can_checkmate(const Position& pos, Color side) const override;
    [[nodiscard]] MateAbility ability(const Position& pos, Color side) const override;
};

/// The sound fast check: `cannot_checkmate` only with a proof (the game is over, the material
/// rules, forced lines that soon leave material that cannot mate, the blockade proof, or a
/// search of at most a few thousand positions in a closed position), `unknown` otherwise, and
/// never `can_checkmate` (it looks for no mating line). About a microsecond on real positions,
/// for a scan of a database or a first pass before the full analysis (HelpmateAnalyzer);
/// `arbiter dead --fast`. How each proof is gated is in docs/unwinnability.md, "The fast check".
class FastUnwinnability final : public Unwinnability {
public:
    [[nodiscard]] MateVerdict can_checkmate(const Position& pos, Color side) const override;
    [[nodiscard]] MateAbility ability(const Position& pos, Color side) const override;
};

/// The default analyzer used by the rules layer when the caller gives none.
const Unwinnability& default_unwinnability() noexcept;

}  // namespace arbiter
