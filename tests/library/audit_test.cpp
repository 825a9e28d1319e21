// The per-game audit on a fixture with one game per finding type and one per parse-error kind
// (tests/data/audit/findings.pgn), read through the real GameReader.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "arbiter/arbiter.hpp"
#include "arbiter/input.hpp"
#include "arbiter/pgn_game.hpp"

using namespace arbiter;
using audit::FindingType;

namespace {

struct Audited {
    std::string event;
    audit::GameAudit result;
    std::vector<pgn::Error> errors;
};

std::vector<Audited> audit_file(const std::string& path, const audit::AuditOptions& options = {},
                                bool keep_positions = false) {
    auto src = open_input(path);
    EXPECT_TRUE(src) << path;
    std::vector<Audited> out;
    if (!src) return out;
    pgn::GameReaderOptions ro;
    ro.keep_positions = keep_positions;
    pgn::GameReader reader(**src, ro);
    pgn::ParsedGame game;
    GameRecord record;
    while (reader.next(game))
        out.push_back(
            {std::string(game.tag("Event").value_or("")), audit::audit_game(game, options, record), game.errors});
    return out;
}

const std::string fixture = std::string(ARBITER_TEST_DATA) + "/audit/findings.pgn";

bool has(const audit::GameAudit& a, FindingType t, const std::string& kind, std::uint32_t ply,
         std::optional<Color> side = std::nullopt) {
    for (const auto& f : a.findings)
        if (f.type == t && f.kind == kind && f.ply == ply && f.side == side) return true;
    return false;
}

}  // namespace

// The CLI keeps the reader's positions so that the audit does not make each move twice: the
// findings must be the same either way, on the fixture and on the real games.
TEST(Audit, KeptPositionsGiveTheSameFindings) {
    std::vector<std::string> files{fixture};
    const std::string real = std::string(ARBITER_SHARED_DATA) + "/pgn/real/shakmaty_lichess_db_1000k.pgn";
    if (std::ifstream(real).good()) files.push_back(real);
    for (const auto& f : files) {
        const auto a = audit_file(f, {}, false), b = audit_file(f, {}, true);
        ASSERT_EQ(a.size(), b.size()) << f;
        for (std::size_t i = 0; i < a.size(); ++i) {
            EXPECT_EQ(a[i].result.plies, b[i].result.plies) << f << " game " << i + 1;
            ASSERT_EQ(a[i].result.findings.size(), b[i].result.findings.size()) << f << " game " << i + 1;
            for (std::size_t k = 0; k < a[i].result.findings.size(); ++k) {
                const auto& x = a[i].result.findings[k];
                const auto& y = b[i].result.findings[k];
                EXPECT_TRUE(x.type == y.type && x.kind == y.kind && x.ply == y.ply && x.side == y.side &&
                            x.detail == y.detail)
                    << f << " game " << i + 1 << ": " << x.detail << " / " << y.detail;
            }
        }
    }
}

TEST(Audit, OneGamePerFindingType) {
    const auto games = audit_file(fixture);
    ASSERT_EQ(games.size(), 21u);
    EXPECT_TRUE(has(games[0].result, FindingType::missed_automatic_draw, "dead_position", 1));
    EXPECT_TRUE(has(games[1].result, FindingType::missed_automatic_draw, "fivefold_repetition", 16));
    EXPECT_TRUE(has(games[2].result, FindingType::missed_automatic_draw, "seventy_five_moves", 199));
    EXPECT_TRUE(has(games[2].result, FindingType::result_contradicts_position, "seventy_five_moves", 199));
    EXPECT_TRUE(has(games[3].result, FindingType::result_contradicts_position, "stalemate", 1));
    EXPECT_TRUE(has(games[4].result, FindingType::result_contradicts_position, "checkmate", 4));
    EXPECT_TRUE(has(games[5].result, FindingType::timeout_unwinnable, "flag", 2, Color::white));
    EXPECT_EQ(games[5].result.rules->id, RuleSetId::fide_online);
    EXPECT_EQ(games[5].result.time_category, TimeCategory::blitz);
    EXPECT_TRUE(has(games[6].result, FindingType::timeout_unwinnable, "flag", 2, Color::black));
    EXPECT_TRUE(games[7].result.findings.empty());  // the lone bishop can help-mate (TV-FLAG-1)
    EXPECT_TRUE(has(games[8].result, FindingType::claimable, "threefold", 8, Color::white));
    EXPECT_TRUE(has(games[8].result, FindingType::claimable, "threefold_intended", 7, Color::black));
    EXPECT_TRUE(has(games[9].result, FindingType::claimable, "fifty", 121, Color::black));
    EXPECT_TRUE(has(games[9].result, FindingType::claimable, "fifty", 122, Color::white));
    EXPECT_TRUE(has(games[9].result, FindingType::claimable, "fifty_intended", 120, Color::white));
    // The claimed threefold (drawn at the chance) counts one chance as used.
    for (const auto& f : games[8].result.findings)
        if (f.kind == "threefold") EXPECT_NE(f.detail.find("1 chance, 0 unused"), std::string::npos) << f.detail;
    for (const auto& f : games[9].result.findings)
        if (f.kind == "fifty" && f.side == Color::white) EXPECT_NE(f.detail.find("unused"), std::string::npos);
}

TEST(Audit, OneGamePerParseErrorKind) {
    const auto games = audit_file(fixture);
    ASSERT_EQ(games.size(), 21u);
    struct Want {
        std::size_t game;
        pgn::Error::Code code;
        std::uint32_t line, column;
    };
    const Want wants[] = {
        {10, pgn::Error::Code::illegal_move, 93, 13},        {11, pgn::Error::Code::ambiguous_move, 101, 4},
        {12, pgn::Error::Code::bad_move_syntax, 107, 13},    {13, pgn::Error::Code::bad_fen, 113, 1},
        {14, pgn::Error::Code::null_move, 121, 7},           {15, pgn::Error::Code::unsupported_variant, 125, 1},
        {16, pgn::Error::Code::unterminated_string, 131, 7}, {17, pgn::Error::Code::unterminated_variation, 140, 7},
        {18, pgn::Error::Code::unexpected_char, 146, 7},     {19, pgn::Error::Code::unterminated_comment, 152, 7},
    };
    for (const auto& w : wants) {
        const auto& errs = games[w.game].errors;
        ASSERT_FALSE(errs.empty()) << games[w.game].event;
        EXPECT_EQ(errs[0].code, w.code) << games[w.game].event;
        EXPECT_EQ(errs[0].pos.line, w.line) << games[w.game].event;
        EXPECT_EQ(errs[0].pos.column, w.column) << games[w.game].event;
    }
    EXPECT_TRUE(games[20].errors.empty());  // the reader resynchronised
    EXPECT_EQ(games[20].result.plies, 1u);
}

TEST(Audit, RulesAutoAndTimeControl) {
    EXPECT_EQ(audit::time_category_from_tag("300+2"), TimeCategory::blitz);  // 300 + 120 s
    EXPECT_EQ(audit::time_category_from_tag("600"), TimeCategory::blitz);
    EXPECT_EQ(audit::time_category_from_tag("900+10"), TimeCategory::rapid);
    EXPECT_EQ(audit::time_category_from_tag("3600"), TimeCategory::standard);
    EXPECT_EQ(audit::time_category_from_tag("40/5400+30:1800+30"), TimeCategory::standard);
    EXPECT_FALSE(audit::time_category_from_tag("-"));
    EXPECT_FALSE(audit::time_category_from_tag("?"));
    EXPECT_FALSE(audit::time_category_from_tag("abc+1"));
    audit::AuditOptions fixed;
    fixed.rules = RuleSetId::fide_2009;
    const auto games = audit_file(fixture, fixed);
    ASSERT_EQ(games.size(), 21u);
    // Under fide-2009 there is no fivefold rule and no 75-move rule: nothing was missed.
    EXPECT_FALSE(has(games[1].result, FindingType::missed_automatic_draw, "fivefold_repetition", 16));
    EXPECT_FALSE(has(games[2].result, FindingType::missed_automatic_draw, "seventy_five_moves", 199));
    EXPECT_EQ(games[0].result.rules->id, RuleSetId::fide_2009);
}
