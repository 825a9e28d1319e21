// journal_users.cpp — the journal: the users of a server, their roles and tokens (journal.hpp).
#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "journal_sql.hpp"

namespace arbiter {

using namespace journal_sql;

Expected<std::string, JournalError> Journal::add_user(const User& user, std::string_view by) {
    if (!storable(user.name))
        return Unexpected(error(JournalError::Code::bad_user,
                                "a user name is 1 to 64 characters without control characters, commas or blanks at "
                                "either end, not '" +
                                    printable(user.name) + "'"));
    for (const auto* list : {&user.sections, &user.boards})
        for (const auto& item : *list)
            if (!storable(item))
                return Unexpected(error(JournalError::Code::bad_user,
                                        std::string(list == &user.sections ? "a section" : "a board") +
                                            " is 1 to 64 characters without control characters, commas or blanks "
                                            "at either end, not '" +
                                            printable(item) + "'"));
    if (user.role != Role::arbiter && (!user.sections.empty() || !user.boards.empty()))
        return Unexpected(error(JournalError::Code::bad_user, "sections and boards are for the arbiter role (a " +
                                                                  std::string(enum_name(user.role)) +
                                                                  " acts on every session)"));
    unsigned char random[32];
    if (RAND_bytes(random, sizeof random) != 1)
        return Unexpected(error(JournalError::Code::io, "no random bytes for a token (OpenSSL RAND_bytes failed)"));
    const std::string token = hex(random, sizeof random);
    const std::string token_hash = sha256_hex(token);
    Transaction tx(db_);
    if (tx.begin_error()) return Unexpected(*tx.begin_error());
    {
        Stmt st(db_, "SELECT 1 FROM users WHERE name = ?");
        st.bind(1, user.name);
        const bool found = st.step();
        if (!st.ok()) return Unexpected(sqlite_error(db_, st.rc(), "cannot read the users"));
        if (found)
            return Unexpected(
                error(JournalError::Code::user_exists, "a user named '" + printable(user.name) + "' is in " + path_ +
                                                           " already (names are never reused, revoked ones included)"));
    }
    const std::string role = enum_name(user.role), sections = join(user.sections), boards = join(user.boards);
    const std::int64_t ms = now_unix_ms();
    Stmt ins(db_,
             "INSERT INTO users (name, role, sections, boards, token_hash, created_ms, created_by) VALUES (?, ?, ?, ?, "
             "?, ?, ?)");
    ins.bind(1, user.name)
        .bind(2, role)
        .bind(3, sections)
        .bind(4, boards)
        .bind(5, token_hash)
        .bind(6, ms)
        .bind(7, std::string(by));
    ins.step();
    if (ins.rc() != SQLITE_DONE) return Unexpected(sqlite_error(db_, ins.rc(), "cannot store the user"));
    Stmt last(statement(last_record_sql)), add(statement(add_record_sql));
    Chain chain(db_, last, add);
    if (auto err = chain.add("user", user.name, user_fields(user.name, role, sections, boards, token_hash, ms, by)))
        return Unexpected(*err);
    if (auto err = tx.commit()) return Unexpected(*err);
    return token;
}

std::optional<JournalError> Journal::revoke_user(std::string_view name, std::string_view by) {
    Transaction tx(db_);
    if (tx.begin_error()) return *tx.begin_error();
    Stmt st(db_, "SELECT revoked_ms FROM users WHERE name = ?");
    st.bind(1, std::string(name));
    const bool found = st.step();
    if (!st.ok()) return sqlite_error(db_, st.rc(), "cannot read the users");
    if (!found) return error(JournalError::Code::no_such_user, "no user named '" + printable(name) + "' in " + path_);
    if (!st.null(0)) return std::nullopt;  // revoked already
    const std::int64_t ms = now_unix_ms();
    Stmt up(db_, "UPDATE users SET revoked_ms = ?, revoked_by = ? WHERE name = ?");
    up.bind(1, ms).bind(2, std::string(by)).bind(3, std::string(name));
    up.step();
    if (up.rc() != SQLITE_DONE) return sqlite_error(db_, up.rc(), "cannot revoke the user");
    Stmt last(statement(last_record_sql)), add(statement(add_record_sql));
    Chain chain(db_, last, add);
    if (auto err = chain.add("revoke", std::string(name), revocation_fields(name, ms, by))) return err;
    return tx.commit();
}

namespace {

constexpr const char* user_columns =
    "SELECT name, role, sections, boards, created_ms, created_by, revoked_ms, revoked_by, token_hash FROM users";

User user_of(const Stmt& st) {
    User u;
    u.name = st.text(0);
    u.role = parse_enum<Role>(st.text(1)).value_or(Role::viewer);
    u.sections = split_list(st.text(2));
    u.boards = split_list(st.text(3));
    u.added = {st.text(5), st.integer(4)};
    if (!st.null(6)) u.revoked = Entered{st.text(7), st.integer(6)};
    return u;
}

}  // namespace

Expected<std::vector<User>, JournalError> Journal::users() const {
    std::vector<User> out;
    if (format_ < 2) return out;
    Stmt st(db_, (std::string(user_columns) + " ORDER BY created_ms, rowid").c_str());
    while (st.step()) out.push_back(user_of(st));
    if (st.rc() != SQLITE_DONE) return Unexpected(sqlite_error(db_, st.rc(), "cannot read the users"));
    return out;
}

Expected<std::optional<User>, JournalError> Journal::user_by_token(std::string_view token) const {
    std::optional<User> found;
    if (format_ < 2) return found;
    const std::string want = sha256_hex(token);
    // Every user's hash compared in full, whatever matched before.
    Stmt st(db_, (std::string(user_columns) + " WHERE revoked_ms IS NULL").c_str());
    while (st.step()) {
        const std::string have = st.text(8);
        if (have.size() == want.size() && CRYPTO_memcmp(have.data(), want.data(), want.size()) == 0)
            found = user_of(st);
    }
    if (st.rc() != SQLITE_DONE) return Unexpected(sqlite_error(db_, st.rc(), "cannot read the users"));
    return found;
}

}  // namespace arbiter
