// live_game.cpp — a game played move by move (live_game.hpp).
#include "requests/live_game.hpp"

#include "json/rules_json.hpp"
#include "requests/request_fields.hpp"
#include "text.hpp"

#include "arbiter/text.hpp"

namespace arbiter::face {

LiveGame::LiveGame(GameInput in) {
    if (!in.given()) in.fen = to_fen(Position());
    record_ = in.build(&tags_);
}

std::string LiveGame::pgn(const Json& request) const {
    const Fields f(request, {"tags", "result", "width", "newline"});
    std::string result = "*", newline = "\n";
    std::size_t width = 79;
    f.text("result", result);
    f.text("newline", newline);
    f.number("width", width, 0, 1'000'000'000);
    std::string out;
    if (f.has("tags")) {
        const Json& tags = request.at("tags");
        if (!tags.is_array()) throw FieldError("\"tags\" must be an array of [name, value] pairs", "tags");
        for (const Json& t : tags) {
            if (!t.is_array() || t.size() != 2 || !t[0].is_string() || !t[1].is_string())
                throw FieldError("\"tags\" must be an array of [name, value] pairs", "tags");
            out += pgn_tag_pair(t[0].get<std::string>(), t[1].get<std::string>()) + newline;
        }
    }
    std::vector<std::string> san;
    for (std::size_t i = 1; i < record_->size(); ++i) san.push_back(record_->san(i));
    std::vector<std::string> tokens = numbered_moves(record_->position(0), san);
    tokens.push_back(result);
    return out + newline + wrap_movetext(tokens, width, newline);
}

Json LiveGame::tags() const {
    Json out = Json::object();
    for (const auto& [name, value] : tags_) out[name] = value;
    return out;
}

namespace {

// The move that led to position i: {"san","uci","fen" (of position `at`),"ply" (of `at`)}.
Json move_json(const GameRecord& r, std::size_t i, std::size_t at) {
    return Json{{"san", r.san(i)},
                {"uci", to_uci(r.position(i - 1), r.move(i))},
                {"fen", to_fen(r.position(at))},
                {"ply", r.game_ply(at)}};
}

}  // namespace

Json LiveGame::push(const std::string& move) {
    play_text(*record_, move, "move", "move ", 0);
    const std::size_t last = record_->size() - 1;
    return move_json(*record_, last, last);
}

Json LiveGame::pop() {
    if (record_->plies_played() == 0)
        throw InputError(Code::no_move, "no move to take back: the game is at its start (ply " +
                                            std::to_string(record_->game_ply(0)) + ")");
    const std::size_t last = record_->size() - 1;
    Json j = move_json(*record_, last, last - 1);
    record_->pop();
    return j;
}

Json LiveGame::status() const { return to_json(draw_status(*record_), *record_); }

Json LiveGame::claim(const std::string& kind, const std::string& intended) const {
    return claim_answer(*record_, kind, intended);
}

Json LiveGame::history() const {
    Json san = Json::array(), uci = Json::array();
    for (std::size_t i = 1; i < record_->size(); ++i) {
        san.push_back(record_->san(i));
        uci.push_back(to_uci(record_->position(i - 1), record_->move(i)));
    }
    return Json{{"san", san}, {"uci", uci}};
}

Json LiveGame::state() const {
    return Json{{"fen", to_fen(record_->current())},
                {"start_fen", to_fen(record_->position(0))},
                {"ply", record_->game_ply(record_->size() - 1)},
                {"plies", record_->plies_played()},
                {"rules", std::string(record_->rules().name)}};
}

}  // namespace arbiter::face
