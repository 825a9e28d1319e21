// service.cpp — the routes of `arbiter serve` (docs/api.md): the CLI's JSON over HTTP.
#include "service.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <deque>
#include <future>
#include <set>
#include <thread>

#include "arbiter/arbiter.hpp"
#include "assets.hpp"
#include "board_svg.hpp"
#include "dead_json.hpp"
#include "errors.hpp"
#include "game_input.hpp"
#include "session_json.hpp"
#include "text.hpp"

namespace arbiter::serve {

using face::Json;

namespace {

/// A request answered with an error: {"error":{"code","message"}} and the status.
struct ApiError {
    int status;
    std::string code;
    std::string message;
    Json extra = nullptr;  // more top-level keys (the refusal of a 409)
};

Response json_response(int status, const Json& j) {
    Response r;
    r.status = status;
    r.body = face::dump(j) + "\n";
    return r;
}

Response error_response(const ApiError& e) {
    Json j{{"error", Json{{"code", e.code}, {"message", face::printable(e.message)}}}};
    if (e.extra.is_object())
        for (auto it = e.extra.begin(); it != e.extra.end(); ++it) j[it.key()] = it.value();
    return json_response(e.status, j);
}

// The body as a JSON object, or 400 bad_json naming the byte.
Json parse_object(const std::string& body) {
    Json j;
    try {
        j = Json::parse(body);
    } catch (const Json::parse_error& e) {
        throw ApiError{400, "bad_json", "the body is not JSON (byte " + std::to_string(e.byte) + "): " + e.what()};
    } catch (const Json::exception& e) {  // a number too large, …
        throw ApiError{400, "bad_json", std::string("the body is not usable JSON: ") + e.what()};
    }
    if (!j.is_object()) throw ApiError{400, "bad_json", "the body must be a JSON object {…}"};
    return j;
}

// Reads the keys of a JSON object into typed fields; unknown keys and wrong types are 400
// bad_field naming the key.
class Fields {
public:
    explicit Fields(const Json& j, std::set<std::string> allowed) : j_(j) {
        for (auto it = j.begin(); it != j.end(); ++it)
            if (!allowed.count(it.key()))
                throw ApiError{400, "bad_field",
                               "unknown key \"" + it.key() + "\" (expected one of: " + list(allowed) + ")"};
    }
    bool has(const char* key) const { return j_.contains(key) && !j_.at(key).is_null(); }
    void text(const char* key, std::string& out) const {
        if (!has(key)) return;
        if (!j_.at(key).is_string()) bad(key, "a string");
        out = j_.at(key).get<std::string>();
    }
    void flag(const char* key, bool& out) const {
        if (!has(key)) return;
        if (!j_.at(key).is_boolean()) bad(key, "true or false");
        out = j_.at(key).get<bool>();
    }
    template <class Int>
    void number(const char* key, Int& out, long long lo, long long hi) const {
        if (!has(key)) return;
        const Json& v = j_.at(key);
        const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
        if (!v.is_number_integer()) bad(key, "a whole number from " + range);
        if (v.is_number_unsigned() ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi)
                                   : v.get<long long>() < lo || v.get<long long>() > hi)
            throw ApiError{400, "bad_field", "\"" + std::string(key) + "\" is out of range: " + range};
        out = static_cast<Int>(v.get<long long>());
    }
    void texts(const char* key, std::vector<std::string>& out) const {
        if (!has(key)) return;
        const Json& v = j_.at(key);
        if (!v.is_array()) bad(key, "an array of strings");
        for (const auto& s : v) {
            if (!s.is_string()) bad(key, "an array of strings");
            out.push_back(s.get<std::string>());
        }
    }

private:
    const Json& j_;
    [[noreturn]] static void bad(const char* key, const std::string& what) {
        throw ApiError{400, "bad_field", "\"" + std::string(key) + "\" must be " + what};
    }
    static std::string list(const std::set<std::string>& keys) {
        std::string out;
        for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k;
        return out;
    }
};

const std::set<std::string> rule_keys{
    "rules",         "time_category",          "initial_position_counts", "counters_from_setup", "fifty_extensions",
    "online_claims", "intended_mate_incorrect"};

std::set<std::string> with_rule_keys(std::set<std::string> keys) {
    keys.insert(rule_keys.begin(), rule_keys.end());
    return keys;
}

void read_rules(const Fields& f, face::RuleInput& in) {
    f.text("rules", in.rules);
    f.text("time_category", in.time_category);
    bool counts = true;
    f.flag("initial_position_counts", counts);
    in.initial_position_counts = counts ? "true" : "false";
    f.text("counters_from_setup", in.counters_from_setup);
    f.texts("fifty_extensions", in.fifty_extensions);
    f.flag("online_claims", in.online_claims_only);
    f.flag("intended_mate_incorrect", in.intended_mate_incorrect);
}

// The position of a status, claim or dead request (the POSITION options of the CLI).
face::GameInput read_position(const Fields& f) {
    face::GameInput in;
    f.text("fen", in.fen);
    f.text("moves", in.moves);
    f.text("pgn", in.pgn_text);
    if (!in.pgn_text.empty()) in.pgn = "pgn";
    if (in.pgn.empty() && (f.has("game") || f.has("ply")))
        throw ApiError{400, "bad_field", "\"game\" and \"ply\" apply to a game given as \"pgn\""};
    f.number("game", in.game, 1, 1'000'000'000);
    f.number("ply", in.ply, 0, 1'000'000);
    for (const char* key : {"fen", "moves", "pgn"}) {
        std::string text;
        f.text(key, text);
        face::require_utf8(key, text);
    }
    return in;
}

ApiError journal_error(const JournalError& e) {
    switch (e.code) {
        case JournalError::Code::no_such_session: return {404, "no_such_session", e.message};
        case JournalError::Code::busy: return {503, "journal_busy", e.message};
        case JournalError::Code::conflict: return {409, "conflict", e.message};
        case JournalError::Code::read_only: return {500, "read_only", e.message};
        case JournalError::Code::io: return {500, "io", e.message};
        default: return {500, code_name(e.code), e.message};
    }
}

bool constant_time_equal(const std::string& a, const std::string& b) {
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i % (b.size() + 1)]);
    return diff == 0;
}

std::optional<SessionId> parse_id(std::string_view text) {
    SessionId id = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), id);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() || id < 1) return std::nullopt;
    return id;
}

std::vector<std::string> split(std::string_view s, char sep) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i <= s.size()) {
        const std::size_t j = std::min(s.find(sep, i), s.size());
        out.emplace_back(s.substr(i, j - i));
        i = j + 1;
    }
    return out;
}

std::string query_value(const Request& req, const std::string& key) {
    const auto it = req.query.find(key);
    return it == req.query.end() ? std::string() : it->second;
}

Response board(const Request& req) {
    const std::string fen = query_value(req, "fen");
    Position pos;
    if (!fen.empty()) {
        try {
            pos = face::composed_fen_or_throw(fen);
        } catch (const face::InputError& e) {
            throw ApiError{400, "bad_fen", "fen: " + e.message()};
        }
    }
    BoardStyle style;
    style.flip = query_value(req, "flip") == "1";
    for (const auto& key : {"highlight", "arrow"}) {
        const std::string v = query_value(req, key);
        if (v.empty()) continue;
        for (const auto& item : split(v, ',')) {
            const bool arrow = std::string_view(key) == "arrow";
            auto sq = [&](std::size_t at) {
                if (item.size() < at + 2 || item[at] < 'a' || item[at] > 'h' || item[at + 1] < '1' ||
                    item[at + 1] > '8')
                    throw ApiError{400, "bad_square",
                                   std::string(key) + ": '" + item + "' is not " +
                                       (arrow ? "a pair of squares such as g1f3" : "a square such as e4")};
                return static_cast<int>((item[at + 1] - '1') * 8 + (item[at] - 'a'));
            };
            if (arrow) {
                if (item.size() != 4) sq(4);
                style.arrows.emplace_back(sq(0), sq(2));
            } else {
                if (item.size() != 2) sq(2);
                style.highlights.push_back(sq(0));
            }
            if (style.arrows.size() + style.highlights.size() > 128)
                throw ApiError{400, "bad_square", "at most 128 highlights and arrows"};
        }
    }
    Response r;
    r.content_type = "image/svg+xml";
    r.body = board_svg(pos, style);
    r.headers.emplace_back("Cache-Control", "public, max-age=3600");
    return r;
}

}  // namespace

struct Service::Entry {
    // Events of one session are applied one at a time: `write` is held from the check of an
    // event to its taking effect (while its append waits for the group commit). Readers take
    // only `m`, which guards js, the state and the SSE messages; js changes under both.
    std::mutex write;
    std::mutex m;
    std::condition_variable cv;
    std::optional<JournaledSession> js;
    std::string state;  // the state JSON, one line
    std::uint64_t version = 0;
    // The last states as SSE messages, so that a listener woken after several events gets each.
    std::deque<std::pair<std::uint64_t, std::string>> recent;
    // Kept only while someone listens: a listener that connects gets the current state first.
    static constexpr std::size_t recent_kept = 64;
    std::size_t listeners = 0;

    // Takes the new state JSON (Service::state_text) and makes the SSE message (call with `m` held).
    void refresh(std::string text) {
        state = std::move(text);
        ++version;
        if (listeners > 0) {
            recent.emplace_back(version, message());
            if (recent.size() > recent_kept) recent.pop_front();
        } else {
            recent.clear();
        }
        cv.notify_all();
    }
    std::string message() const {
        return "id: " + std::to_string(js->session().events_applied()) + "\nevent: state\ndata: " + state + "\n\n";
    }
};

// An append waiting for the group commit, on the stack of the request thread that waits for it.
struct Service::Pending {
    Journal::Append append;
    std::optional<JournalError> result;
    bool done = false;
};

// Journals one event: it joins the batch being gathered and returns when the transaction
// holding it is committed and synced. The first waiter finding no commit under way commits
// the whole queue (leader); the others wait, and one of those whose event came too late for
// that transaction leads the next. So N events arriving during one fsync cost one more fsync.
std::optional<JournalError> Service::journal_append(const Journal::Append& append) {
    Pending me{append, std::nullopt, false};
    std::unique_lock l(commit_mutex_);
    queued_.push_back(&me);
    while (!me.done) {
        if (committing_) {
            commit_cv_.wait(l);
            continue;
        }
        committing_ = true;
        std::vector<Pending*> batch;
        batch.swap(queued_);
        l.unlock();
        std::vector<Journal::Append> appends;
        appends.reserve(batch.size());
        for (const Pending* p : batch) appends.push_back(p->append);
        std::vector<std::optional<JournalError>> results;
        {
            std::lock_guard j(journal_mutex_);
            results = journal_.append_all(appends);
        }
        l.lock();
        for (std::size_t i = 0; i < batch.size(); ++i) {
            batch[i]->result = std::move(results[i]);
            batch[i]->done = true;
        }
        committing_ = false;
        commit_cv_.notify_all();
    }
    return me.result;
}

class Service::RulesThreads {
public:
    explicit RulesThreads(int n) {
        for (int i = 0; i < n; ++i) threads_.emplace_back([this] { work(); });
    }
    ~RulesThreads() {
        {
            std::lock_guard l(m_);
            stop_ = true;
        }
        cv_.notify_all();
        for (auto& t : threads_) t.join();
    }
    RulesThreads(const RulesThreads&) = delete;
    RulesThreads& operator=(const RulesThreads&) = delete;
    /// Runs f on one of the threads and returns its result (or throws its exception).
    template <class F>
    auto run(F f) -> decltype(f()) {
        auto task = std::make_shared<std::packaged_task<decltype(f())()>>(std::move(f));
        auto result = task->get_future();
        {
            std::lock_guard l(m_);
            queue_.emplace_back([task] { (*task)(); });
        }
        cv_.notify_one();
        return result.get();
    }

private:
    void work() {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock l(m_);
                cv_.wait(l, [&] { return stop_ || !queue_.empty(); });
                if (queue_.empty()) return;
                job = std::move(queue_.front());
                queue_.pop_front();
            }
            job();
        }
    }
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> queue_;
    bool stop_ = false;
    std::vector<std::thread> threads_;
};

Service::Service(Journal journal, ServiceOptions options)
    : journal_(std::move(journal)), options_(std::move(options)), rules_(std::make_unique<RulesThreads>(2)) {}

std::string Service::state_text(const JournaledSession& js) {
    return rules_->run([&] { return face::dump(face::state_json(js.session(), js.id())); });
}

Service::~Service() { stop(); }

void Service::stop() {
    stopping_ = true;
    std::lock_guard lock(map_mutex_);
    for (auto& [id, e] : entries_) {
        std::lock_guard l(e->m);
        e->cv.notify_all();
    }
}

Service::EntryPtr Service::entry(SessionId id) {
    std::lock_guard lock(map_mutex_);
    if (auto it = entries_.find(id); it != entries_.end()) return it->second;
    auto e = std::make_shared<Entry>();
    {
        auto s = rules_->run([&] {  // a replay: the rules' work
            std::lock_guard j(journal_mutex_);
            return JournaledSession::open(journal_, id);
        });
        if (!s) throw journal_error(s.error());
        e->js.emplace(std::move(*s));
    }
    e->refresh(state_text(*e->js));
    entries_.emplace(id, e);
    return e;
}

Response Service::handle(const Request& req) {
    Response r;
    try {
        r = route(req);
    } catch (const ApiError& e) {
        r = error_response(e);
    } catch (const face::InputError& e) {
        r = error_response({400, "bad_input", e.message()});
    } catch (const std::bad_alloc&) {
        r = error_response({500, "out_of_memory", "out of memory"});
    } catch (const std::exception& e) {
        r = error_response({500, "internal", e.what()});
    }
    r.headers.emplace_back("X-Content-Type-Options", "nosniff");
    r.headers.emplace_back("Referrer-Policy", "no-referrer");
    r.headers.emplace_back("Content-Security-Policy",
                           "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src "
                           "'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    if (r.content_type == "application/json") r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

Response Service::route(const Request& req) {
    const std::string& path = req.path;
    const bool get = req.method == "GET" || req.method == "HEAD";
    const bool post = req.method == "POST";
    auto only = [&](bool allowed, const char* methods) {
        if (!allowed)
            throw ApiError{405, "method_not_allowed", req.method + " " + path + ": use " + methods,
                           Json{{"allow", methods}}};
    };
    if (path.rfind("/api/", 0) != 0) {
        if (path == "/board.svg") {
            only(get, "GET");
            return board(req);
        }
        const std::string name = path == "/" ? "/index.html" : path;
        const Asset* a = find_asset(name);
        if (!a) throw ApiError{404, "not_found", "no such page: " + path};
        only(get, "GET");
        Response r;
        r.content_type = a->content_type;
        r.body.assign(a->data, a->size);
        return r;
    }
    if (path == "/api/v1/health") {
        only(get, "GET");
        return json_response(200, Json{{"status", "ok"}, {"version", std::string(arbiter::version)}});
    }
    if (!options_.token.empty()) {
        const std::string prefix = "Bearer ";
        const std::string& h = req.authorization;
        if (h.rfind(prefix, 0) != 0 || !constant_time_equal(h.substr(prefix.size()), options_.token)) {
            ApiError e{401, "unauthorized", "this server needs Authorization: Bearer TOKEN (the --token-file's)"};
            Response r = error_response(e);
            r.headers.emplace_back("WWW-Authenticate", "Bearer");
            return r;
        }
    }
    const std::size_t limit =
        path == "/api/v1/status" || path == "/api/v1/claim" || path == "/api/v1/dead" ? max_pgn_body : max_body;
    if (req.body.size() > limit)
        throw ApiError{413, "too_large",
                       "the body has " + std::to_string(req.body.size()) + " bytes, over the limit of " +
                           std::to_string(limit) + " for " + path};
    if (path == "/api/v1/sessions") {
        only(get || post, "GET, POST");
        return post ? create_session(req) : list_sessions();
    }
    if (path == "/api/v1/status" || path == "/api/v1/claim" || path == "/api/v1/dead") {
        only(post, "POST");
        return position_route(path.substr(8), req);
    }
    const std::string sessions = "/api/v1/sessions/";
    if (path.rfind(sessions, 0) == 0) {
        const auto parts = split(std::string_view(path).substr(sessions.size()), '/');
        const auto id = parse_id(parts[0]);
        if (!id || parts.size() > 2) throw ApiError{404, "not_found", "no such resource: " + path};
        if (parts.size() == 1) {
            only(get, "GET");
            return get_session(*id);
        }
        if (parts[1] == "events") {
            only(post, "POST");
            return post_event(*id, req);
        }
        if (parts[1] == "pgn") {
            only(get, "GET");
            return pgn(*id);
        }
        if (parts[1] == "stream") {
            only(get, "GET");
            return stream(*id);
        }
    }
    throw ApiError{404, "not_found", "no such resource: " + path};
}

Response Service::create_session(const Request& req) {
    const Json j = parse_object(req.body);
    const Fields f(j, with_rule_keys({"time_control", "start_fen", "white", "black", "event", "site", "date", "round",
                                      "no_offers_before", "quickplay_finish", "blitz_fully_supervised"}));
    face::NewSessionInput in;
    read_rules(f, in.rules);
    in.category_given = f.has("time_category");
    f.text("time_control", in.time_control);
    f.text("start_fen", in.fen);
    f.text("white", in.white);
    f.text("black", in.black);
    f.text("event", in.event);
    f.text("site", in.site);
    f.text("date", in.date);
    f.text("round", in.round);
    f.number("no_offers_before", in.no_offers_before, 0, 10'000);
    f.flag("quickplay_finish", in.quickplay);
    f.flag("blitz_fully_supervised", in.blitz_supervised);
    SessionConfig cfg;
    try {
        cfg = face::session_config(in);
    } catch (const face::InputError& e) {
        throw ApiError{400, "bad_config", e.message()};
    }
    auto e = std::make_shared<Entry>();
    {
        std::lock_guard j2(journal_mutex_);
        auto s = JournaledSession::create(journal_, cfg);
        if (!s) throw journal_error(s.error());
        e->js.emplace(std::move(*s));
    }
    e->refresh(state_text(*e->js));
    const SessionId id = e->js->id();
    {
        std::lock_guard lock(map_mutex_);
        entries_.emplace(id, e);
    }
    Response r;
    r.status = 201;
    r.body = e->state + "\n";
    r.headers.emplace_back("Location", "/api/v1/sessions/" + std::to_string(id));
    return r;
}

Response Service::list_sessions() {
    std::vector<SessionId> ids;
    {
        std::lock_guard j(journal_mutex_);
        auto got = journal_.sessions();
        if (!got) throw journal_error(got.error());
        ids = *got;
    }
    Json out = Json::array();
    for (SessionId id : ids) {
        EntryPtr e;
        try {
            e = entry(id);
        } catch (const ApiError& err) {
            out.push_back(Json{{"id", id}, {"status", "damaged"}, {"code", err.code}, {"error", err.message}});
            continue;
        }
        std::lock_guard l(e->m);
        const Session& s = e->js->session();
        out.push_back(Json{{"id", id},
                           {"status", s.ended() ? "ended" : "ongoing"},
                           {"result", s.result()},
                           {"ply", s.record().game_ply(s.record().size() - 1)},
                           {"rules", s.rules().name},
                           {"events", s.events_applied()},
                           {"white", s.config().white},
                           {"black", s.config().black}});
    }
    return json_response(200, out);
}

Response Service::get_session(SessionId id) {
    const EntryPtr e = entry(id);
    std::lock_guard l(e->m);
    Response r;
    r.body = e->state + "\n";  // built when the state last changed
    return r;
}

Response Service::post_event(SessionId id, const Request& req) {
    parse_object(req.body);  // malformed JSON is bad_json; a JSON object that is no event, bad_event
    Event ev;
    try {
        ev = face::event_from_json(req.body);
    } catch (const face::InputError& err) {
        throw ApiError{400, "bad_event", err.message()};
    }
    const EntryPtr e = entry(id);
    std::lock_guard w(e->write);
    for (int attempt = 0;; ++attempt) {
        // The session's check, in memory (the journal untouched), on a rules thread.
        auto staged = rules_->run([&] { return e->js->stage(ev); });
        std::optional<JournalError> err;
        if (!staged)
            err = staged.error();
        else
            err = journal_append(staged->append(id));
        if (err && err->code == JournalError::Code::conflict && attempt == 0) {
            // Another process (the CLI) appended meanwhile: reload the session and try again.
            std::optional<JournaledSession> reloaded;
            {
                auto s = rules_->run([&] {
                    std::lock_guard j(journal_mutex_);
                    return JournaledSession::open(journal_, id);
                });
                if (!s) throw journal_error(s.error());
                reloaded.emplace(std::move(*s));
            }
            std::string text = state_text(*reloaded);
            std::lock_guard l(e->m);
            e->js.emplace(std::move(*reloaded));
            e->refresh(std::move(text));
            continue;
        }
        if (err && err->refusal) {
            const Json refusal = face::refusal_json(*err->refusal, err->message, id);
            throw ApiError{409, code_name(*err->refusal), err->message, Json{{"refusal", refusal}}};
        }
        if (err) throw journal_error(*err);
        std::lock_guard l(e->m);
        e->js->commit(std::move(*staged));
        e->refresh(state_text(*e->js));
        Response r;
        r.body = e->state + "\n";
        return r;
    }
}

Response Service::pgn(SessionId id) {
    const EntryPtr e = entry(id);
    std::lock_guard l(e->m);
    Response r;
    r.content_type = "application/x-chess-pgn; charset=utf-8";
    r.body = export_pgn(e->js->session());
    return r;
}

Response Service::stream(SessionId id) {
    const EntryPtr e = entry(id);
    if (streams_.fetch_add(1) >= options_.max_streams) {
        --streams_;
        throw ApiError{503, "too_many_streams",
                       "this server holds " + std::to_string(options_.max_streams) + " streams already"};
    }
    // Decrements the count when the stream (and the function holding this) is destroyed.
    {
        std::lock_guard l(e->m);
        ++e->listeners;
    }
    auto held = std::shared_ptr<void>(nullptr, [this, e](void*) {
        --streams_;
        std::lock_guard l(e->m);
        --e->listeners;
    });
    Response r;
    r.content_type = "text/event-stream";
    r.headers.emplace_back("Cache-Control", "no-store");
    r.headers.emplace_back("X-Accel-Buffering", "no");
    auto sent = std::make_shared<std::optional<std::uint64_t>>();
    r.stream = [this, e, held, sent](std::string& chunk) {
        std::unique_lock l(e->m);
        const bool first = !sent->has_value();
        if (!first)
            e->cv.wait_for(l, std::chrono::milliseconds(options_.heartbeat_ms),
                           [&] { return stopping_ || e->version != **sent; });
        if (stopping_) return false;
        const bool caught_up = !first && e->version == **sent;
        chunk = first ? "retry: 1000\n" : "";
        if (first) {
            chunk += e->message();  // a console that (re)connects gets the current state first
        } else if (e->version != **sent) {
            // The state after every accepted event since the last message (the latest alone when
            // this listener fell more than recent_kept behind).
            if (e->recent.empty() || e->recent.front().first > **sent + 1) {
                chunk += e->message();
            } else {
                for (const auto& [v, m] : e->recent)
                    if (v > **sent) chunk += m;
            }
        } else if (caught_up) {
            chunk += ": keep-alive\n\n";
        }
        *sent = e->version;
        return true;
    };
    return r;
}

Response Service::position_route(const std::string& what, const Request& req) {
    const Json j = parse_object(req.body);
    std::set<std::string> keys{"fen", "moves", "pgn", "game", "ply"};
    if (what == "claim") keys.insert({"kind", "intended"});
    if (what == "dead")
        keys.insert({"side", "limit", "quick"});
    else
        keys = with_rule_keys(keys);
    const Fields f(j, keys);
    face::GameInput in = read_position(f);
    if (what != "dead") read_rules(f, in);
    try {
        if (what == "dead") {
            std::string side = "both";
            f.text("side", side);
            if (side != "white" && side != "black" && side != "both")
                throw ApiError{400, "bad_field", "\"side\" must be white, black or both"};
            HelpmateOptions options;
            f.number("limit", options.node_limit, 1, static_cast<long long>(HelpmateOptions{}.node_limit));
            bool quick = false;
            f.flag("quick", quick);
            if (quick) options.mode = HelpmateOptions::Mode::quick;
            if (!in.given())
                throw ApiError{400, "bad_position", "no position given: give \"fen\", \"moves\" or \"pgn\""};
            const bool game = !in.moves.empty() || !in.pgn.empty();
            const Position pos = game ? face::position_of(in) : face::composed_fen_or_throw(in.fen);
            const HelpmateAnalyzer analyzer(options);
            return json_response(200,
                                 face::dead_json(pos, face::analyse_dead(analyzer, pos, face::sides_of(side)), false));
        }
        const auto record = in.build();
        if (what == "status") return json_response(200, face::to_json(draw_status(*record), *record));
        std::string kind, intended;
        f.text("kind", kind);
        f.text("intended", intended);
        const auto k = parse_claim_kind(kind);
        if (!k) throw ApiError{400, "bad_field", "\"kind\" must be threefold or fifty, not '" + kind + "'"};
        if (intended.empty()) return json_response(200, face::to_json(evaluate_claim(*record, *k), *record));
        const auto m = parse_move(record->current(), intended);
        if (!m && m.error().kind == MoveError::Kind::syntax)
            throw ApiError{400, "bad_move",
                           "intended: '" + intended + "' is not a move (byte " + std::to_string(m.error().offset) +
                               "): " + m.error().message};
        return json_response(200, face::to_json(evaluate_claim(*record, *k, std::string_view(intended)), *record));
    } catch (const face::InputError& e) {
        throw ApiError{400, "bad_position", e.message()};
    }
}

}  // namespace arbiter::serve
