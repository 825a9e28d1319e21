// rules_json.cpp — JSON forms of draw status and claim verdicts.
#include "json/rules_json.hpp"
#include "json/message_json.hpp"

namespace arbiter::face {

const char* yes_no_unknown(MateAbility a) noexcept {
    switch (a) {
        case MateAbility::can_checkmate: return "yes";
        case MateAbility::cannot_checkmate: return "no";
        case MateAbility::unknown: return "unknown";
    }
    return "unknown";
}

Json to_json(const Termination& t, const GameRecord& record) {
    return Json{{"kind", termination_name(t.kind)},
                {"result", t.result},
                {"article", t.article},
                {"ply", record.game_ply(t.index)},
                {"after", record.move_label(t.index)}};
}

namespace {
Json san_list(const GameRecord& record, const std::vector<Move>& moves) {
    Json out = Json::array();
    for (Move m : moves) out.push_back(to_san(record.current(), m));
    return out;
}

// A position cited as evidence: its ply, the move that led to it as fields (number, SAN, UCI, and
// number and SAN together as a scoresheet writes them), whether that move is the claim's written move, and
// its FEN. The start position has no move: null.
Json cited(const CitedPosition& c) {
    Json j;
    j["ply"] = c.ply;
    if (c.san.empty()) {
        j["number"] = nullptr;
        j["san"] = nullptr;
        j["uci"] = nullptr;
        j["move"] = nullptr;
    } else {
        const std::uint32_t before = c.ply - 1;  // the ply the move was made from
        j["number"] = before / 2 + 1;
        j["san"] = c.san;
        j["uci"] = c.uci;
        j["move"] = std::to_string(before / 2 + 1) + (before % 2 == 0 ? "." : "...") + c.san;
    }
    j["intended"] = c.intended;
    j["fen"] = c.fen;
    return j;
}
}  // namespace

Json to_json(const DrawStatus& s, const GameRecord& record) {
    Json j;
    j["fen"] = s.fen;
    j["side_to_move"] = name(s.side_to_move);
    j["ply"] = s.ply;  // the game ply (from the start position's move number), as --ply takes it
    j["no_progress_plies"] = s.no_progress_plies;
    j["repetition"] = Json{{"count", s.repetition_count}, {"plies", s.repetition_plies}};
    j["termination"] = s.termination ? to_json(*s.termination, record) : Json(nullptr);
    Json director = Json::array();
    for (const auto& t : s.director_may_declare) director.push_back(to_json(t, record));
    j["director_may_declare"] = director;
    // After the end there is nothing to claim: null, not "now": false.
    j["claims"] =
        s.termination
            ? Json(nullptr)
            : Json{{"threefold", {{"now", s.threefold.now}, {"intended", san_list(record, s.threefold.intended)}}},
                   {"fifty", {{"now", s.fifty.now}, {"intended", san_list(record, s.fifty.intended)}}}};
    j["can_checkmate"] =
        Json{{"white", yes_no_unknown(s.white_can_checkmate)}, {"black", yes_no_unknown(s.black_can_checkmate)}};
    j["rules"] = record.rules().name;
    j["plies_played"] = record.size() - 1;  // from the start position (the FEN's, for a set-up game)
    return j;
}

Json to_json(const ClaimVerdict& v, const GameRecord& record) {
    Json j;
    j["kind"] = claim_kind_name(v.kind);
    j["claimant"] = name(v.claimant);
    j["intended"] = v.intended ? Json(v.intended_san) : Json(nullptr);
    j["correct"] = v.correct;
    j["article"] = v.article;
    j["reason"] = v.reason;
    j["reason_message"] = message_json(v.reason_message);
    Json ev;
    if (v.kind == ClaimKind::threefold) {
        ev["count"] = v.occurrences.size();
        Json occ = Json::array();
        for (const auto& c : v.occurrences) occ.push_back(cited(c));
        ev["occurrences"] = occ;
        Json look = Json::array();
        for (const auto& l : v.lookalikes) {
            Json x = cited(l.position);
            x["why"] = l.why;
            x["why_message"] = message_json(l.why_message);
            x["castling_rights_differ"] = l.castling_rights_differ;
            x["en_passant_differs"] = l.en_passant_differs;
            look.push_back(x);
        }
        ev["not_counted"] = look;
    } else {
        ev["no_progress_plies"] = v.no_progress_plies;
        ev["required_plies"] = v.required_plies;
        ev["count_started"] = v.count_started ? cited(*v.count_started) : Json(nullptr);
    }
    j["evidence"] = ev;
    j["penalty"] = incorrect_claim_penalty(v, record);
    j["rules"] = record.rules().name;
    return j;
}

Json incorrect_claim_penalty(const ClaimVerdict& v, const GameRecord& record) {
    if (v.correct) return nullptr;
    const RuleSet& rs = record.rules();
    const ProcedureRules& pr = procedure_rules(rs.id);
    return Json{{"side", std::string(name(v.claimant))},
                {"added_to", std::string(name(~v.claimant))},
                {"added_ms", 1000LL * incorrect_claim_penalty_seconds(rs, record.options())},
                {"deducted_ms", rs.claimant_time_deduction ? Json(nullptr) : Json(0)},
                {"article", v.kind == ClaimKind::threefold ? pr.incorrect_claim : pr.incorrect_fifty_claim}};
}

Json rule_sets_json() {
    Json ids = Json::array();
    for (RuleSetId id : enum_values<RuleSetId>()) ids.push_back(enum_name(id));
    return Json{{"rule_sets", ids}, {"default", enum_name(RuleSetId{})}};
}

}  // namespace arbiter::face
