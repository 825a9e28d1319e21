// state.cpp — the watch state file on SQLite: boards (moves, clocks) and the alerts in force.
#include "state.hpp"

#include <sqlite3.h>

#include <charconv>
#include <map>
#include <set>
#include <stdexcept>

namespace arbiter::watch {

namespace {

constexpr int application_id = 0x41525457;  // "ARTW"

constexpr const char* schema = R"sql(
CREATE TABLE IF NOT EXISTS boards (
  id TEXT PRIMARY KEY, white TEXT, black TEXT, round TEXT, source TEXT, rules TEXT, time_category TEXT,
  start_fen TEXT, moves TEXT, clocks TEXT, result TEXT
);
CREATE TABLE IF NOT EXISTS alerts (
  key TEXT PRIMARY KEY, board TEXT NOT NULL, type TEXT NOT NULL, kind TEXT NOT NULL, ply INTEGER NOT NULL,
  move TEXT, side TEXT, article TEXT, detail TEXT, count INTEGER, source TEXT, seq INTEGER,
  acked INTEGER NOT NULL DEFAULT 0, plies TEXT
);
)sql";

struct Statement {
    sqlite3_stmt* st = nullptr;
    Statement(sqlite3* db, const char* sql, const std::string& path) {
        if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK)
            throw std::runtime_error(path + ": " + sqlite3_errmsg(db));
    }
    ~Statement() { sqlite3_finalize(st); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    void text(int i, const std::string& v) {
        sqlite3_bind_text(st, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    }
    void number(int i, std::int64_t v) { sqlite3_bind_int64(st, i, v); }
    void null(int i) { sqlite3_bind_null(st, i); }
    std::string column(int i) const {
        const auto* p = sqlite3_column_text(st, i);
        return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(st, i)))
                 : std::string();
    }
};

}  // namespace

struct StateFile::Impl {
    sqlite3* db = nullptr;
    std::string path;

    void exec(const char* sql) {
        char* msg = nullptr;
        if (sqlite3_exec(db, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
            const std::string m = msg ? msg : sqlite3_errmsg(db);
            sqlite3_free(msg);
            throw std::runtime_error(path + ": " + m);
        }
    }
    void run(Statement& s) {
        const int rc = sqlite3_step(s.st);
        sqlite3_reset(s.st);
        if (rc != SQLITE_DONE && rc != SQLITE_ROW) throw std::runtime_error(path + ": " + sqlite3_errmsg(db));
    }
    void add_column(const std::string& table, const std::string& column, const std::string& type) {
        Statement s(db, ("SELECT count(*) FROM pragma_table_info('" + table + "') WHERE name = ?1").c_str(), path);
        s.text(1, column);
        if (sqlite3_step(s.st) == SQLITE_ROW && sqlite3_column_int64(s.st, 0) > 0) return;
        exec(("ALTER TABLE " + table + " ADD COLUMN " + column + " " + type).c_str());
    }
    std::int64_t pragma(const char* sql) {
        Statement s(db, sql, path);
        return sqlite3_step(s.st) == SQLITE_ROW ? sqlite3_column_int64(s.st, 0) : 0;
    }
};

StateFile::StateFile(const std::string& path) : impl_(std::make_unique<Impl>()) {
    impl_->path = path;
    if (sqlite3_open_v2(path.c_str(), &impl_->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
        const std::string m = impl_->db ? sqlite3_errmsg(impl_->db) : "cannot open";
        sqlite3_close(impl_->db);
        impl_->db = nullptr;
        throw std::runtime_error(path + ": " + m);
    }
    sqlite3_busy_timeout(impl_->db, 5000);
    try {
        const std::int64_t app = impl_->pragma("PRAGMA application_id");
        const std::int64_t tables = impl_->pragma("SELECT count(*) FROM sqlite_schema");
        if (app != application_id && (app != 0 || tables != 0))
            throw std::runtime_error(path + ": not a watch state file (another SQLite database)");
        impl_->exec("PRAGMA journal_mode=WAL");
        impl_->exec("PRAGMA synchronous=NORMAL");
        impl_->exec(schema);
        // Files written before the result and the evidence plies were kept get the columns.
        impl_->add_column("boards", "result", "TEXT");
        impl_->add_column("alerts", "plies", "TEXT");
        impl_->exec("PRAGMA application_id=1095914583");
    } catch (...) {
        sqlite3_close(impl_->db);
        impl_->db = nullptr;
        throw;
    }
    static_assert(application_id == 1095914583);
}

StateFile::~StateFile() {
    if (impl_ && impl_->db) sqlite3_close(impl_->db);
}

std::size_t StateFile::load(Hall& hall) {
    // The alerts first, by board.
    std::map<std::string, std::vector<Alert>> by_board;
    {
        Statement s(impl_->db,
                    "SELECT board, type, kind, ply, move, side, article, detail, count, source, plies FROM alerts "
                    "ORDER BY rowid",
                    impl_->path);
        while (sqlite3_step(s.st) == SQLITE_ROW) {
            Alert a{.board = s.column(0),
                    .type = s.column(1),
                    .kind = s.column(2),
                    .ply = static_cast<std::uint32_t>(sqlite3_column_int64(s.st, 3)),
                    .move = s.column(4)};
            const std::string side = s.column(5);
            if (!side.empty()) a.side = parse_enum<Color>(side);
            a.article = s.column(6);
            a.detail = s.column(7);
            if (sqlite3_column_type(s.st, 8) != SQLITE_NULL)
                a.count = static_cast<std::uint32_t>(sqlite3_column_int64(s.st, 8));
            a.source = s.column(9);
            const std::string plies = s.column(10);
            for (std::size_t at = 0; at < plies.size();) {
                std::uint32_t v = 0;
                const auto [end, ec] = std::from_chars(plies.data() + at, plies.data() + plies.size(), v);
                if (ec != std::errc()) break;
                a.plies.push_back(v);
                at = static_cast<std::size_t>(end - plies.data()) + 1;
            }
            by_board[a.board].push_back(std::move(a));
        }
    }
    std::size_t n = 0;
    Statement s(
        impl_->db,
        "SELECT id, white, black, round, source, rules, time_category, start_fen, moves, clocks, result FROM boards "
        "ORDER BY rowid",
        impl_->path);
    while (sqlite3_step(s.st) == SQLITE_ROW) {
        BoardRecord r{.id = s.column(0),
                      .white = s.column(1),
                      .black = s.column(2),
                      .round = s.column(3),
                      .source = s.column(4),
                      .rules = s.column(5),
                      .time_category = s.column(6),
                      .start_fen = s.column(7),
                      .moves = s.column(8),
                      .clocks = s.column(9),
                      .result = s.column(10)};
        for (Alert& a : by_board[r.id]) a.white = r.white, a.black = r.black, a.round = r.round;
        hall.restore(r, by_board[r.id]);
        by_board.erase(r.id);
        ++n;
    }
    return n;
}

void StateFile::save(const Hall& hall, const std::vector<std::string>& changed, const std::vector<Alert>& batch) {
    if (changed.empty() && batch.empty()) return;
    impl_->exec("BEGIN IMMEDIATE");
    try {
        std::set<std::string> boards(changed.begin(), changed.end());
        for (const Alert& a : batch) boards.insert(a.board);
        Statement up(impl_->db,
                     "INSERT OR REPLACE INTO boards (id, white, black, round, source, rules, time_category, start_fen, "
                     "moves, clocks, result) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                     impl_->path);
        for (const std::string& id : boards) {
            const auto r = hall.board_record(id);
            if (!r) continue;
            const std::string* f[] = {&r->id,     &r->white,  &r->black,         &r->round,
                                      &r->source, &r->rules,  &r->time_category, &r->start_fen,
                                      &r->moves,  &r->clocks, &r->result};
            for (int i = 0; i < 11; ++i) up.text(i + 1, *f[i]);
            impl_->run(up);
        }
        Statement add(
            impl_->db,
            "INSERT INTO alerts (key, board, type, kind, ply, move, side, article, detail, count, source, seq, "
            "plies) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) ON CONFLICT(key) DO "
            "UPDATE SET detail = excluded.detail",
            impl_->path);
        Statement del(impl_->db, "DELETE FROM alerts WHERE key = ?1", impl_->path);
        for (const Alert& a : batch) {
            if (a.withdrawn || a.closed) {
                del.text(1, a.key());
                impl_->run(del);
                continue;
            }
            add.text(1, a.key());
            add.text(2, a.board);
            add.text(3, a.type);
            add.text(4, a.kind);
            add.number(5, a.ply);
            add.text(6, a.move);
            if (a.side)
                add.text(7, std::string(enum_name(*a.side)));
            else
                add.null(7);
            add.text(8, a.article);
            add.text(9, a.detail);
            if (a.count)
                add.number(10, *a.count);
            else
                add.null(10);
            add.text(11, a.source);
            add.number(12, static_cast<std::int64_t>(a.seq));
            std::string plies;
            for (const std::uint32_t p : a.plies) plies += (plies.empty() ? "" : " ") + std::to_string(p);
            add.text(13, plies);
            impl_->run(add);
        }
        impl_->exec("COMMIT");
    } catch (...) {
        sqlite3_exec(impl_->db, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

bool StateFile::acknowledge(const std::string& key) {
    Statement s(impl_->db, "UPDATE alerts SET acked = 1 WHERE key = ?1", impl_->path);
    s.text(1, key);
    impl_->run(s);
    return sqlite3_changes(impl_->db) > 0;
}

std::vector<std::string> StateFile::acknowledged() {
    std::vector<std::string> out;
    Statement s(impl_->db, "SELECT key FROM alerts WHERE acked = 1 ORDER BY rowid", impl_->path);
    while (sqlite3_step(s.st) == SQLITE_ROW) out.push_back(s.column(0));
    return out;
}

}  // namespace arbiter::watch
