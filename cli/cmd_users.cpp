// cmd_users.cpp — `arbiter users add|list|revoke` (the named users of a server and their roles,
// kept in the journal: docs/api.md, Security), and the two `session` commands that act on the
// journal's trust rather than on a game: `session verify` (the hash chain) and `session delete`.
#include <iostream>

#include "cli.hpp"
#include "session/session_json.hpp"
#include "session_journal.hpp"

namespace arbiter::cli {

namespace {

// "1-10,12" or "Open A,Open B" into items (blanks around each dropped).
std::vector<std::string> list_of(const std::string& text, const char* option) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (!text.empty() && i <= text.size()) {
        const std::size_t j = std::min(text.find(',', i), text.size());
        std::string item = text.substr(i, j - i);
        while (!item.empty() && item.front() == ' ') item.erase(item.begin());
        while (!item.empty() && item.back() == ' ') item.pop_back();
        if (item.empty())
            throw InputError(Code::bad_value, std::string(option) + ": an empty item in '" + printable(text) + "'",
                             std::string(option).substr(2));
        out.push_back(item);
        i = j + 1;
    }
    return out;
}

Json user_json(const User& u) {
    Json j{{"name", u.name},
           {"role", enum_name(u.role)},
           {"sections", u.sections},
           {"boards", u.boards},
           {"added", entered_json(u.added)},
           {"revoked", u.revoked ? entered_json(*u.revoked) : Json(nullptr)}};
    return j;
}

void add_users_add(CLI::App& users) {
    struct Options {
        std::string journal, name, role, sections, boards;
        bool json = false;
    };
    auto o = std::make_shared<Options>();
    auto* cmd = users.add_subcommand(
        "add", "Add a named user with a role; prints its new token once (the journal keeps only its hash)");
    cmd->add_option("--journal", o->journal, "The journal file (created when missing)")->required();
    add_busy_timeout(*cmd);
    cmd->add_option("--name", o->name, "The user's name, as the journal records who entered each event")->required();
    cmd->add_option("--role", o->role, "chief (everything), arbiter (events on its sessions) or viewer (read only)")
        ->required();
    cmd->add_option("--sections", o->sections,
                    "An arbiter's sections, comma-separated (a session's --section); default: every section");
    cmd->add_option("--boards", o->boards,
                    "An arbiter's boards, comma-separated, ranges of numbers allowed (1-10,12); default: every board");
    cmd->add_flag("--json", o->json, "Print {\"name\",\"role\",\"token\"} as JSON");
    add_by(*cmd);
    cmd->callback([o] {
        const auto role = parse_enum<Role>(o->role);
        if (!role)
            throw InputError(Code::bad_value,
                             "--role: expected " + enum_name_list<Role>() + ", not '" + printable(o->role) + "'",
                             "role");
        User u;
        u.name = o->name;
        u.role = *role;
        u.sections = list_of(o->sections, "--sections");
        u.boards = list_of(o->boards, "--boards");
        Journal journal = open_journal(o->journal, Journal::Mode::create_if_missing);
        auto token = journal.add_user(u, author());
        if (!token) fail(token.error());
        if (o->json)
            std::cout << dump(Json{{"name", u.name}, {"role", o->role}, {"token", *token}}) << '\n';
        else
            std::cout << *token << '\n';
        std::cerr << "arbiter: the token of " << printable(u.name)
                  << " is shown this once; give it to them (Authorization: Bearer TOKEN, or the console's token box)\n";
    });
}

void add_users_list(CLI::App& users) {
    struct Options {
        std::string journal;
        bool json = false;
    };
    auto o = std::make_shared<Options>();
    auto* cmd = users.add_subcommand("list", "List the users of a journal, revoked ones too (never their tokens)");
    cmd->add_option("--journal", o->journal, "The journal file")->required();
    add_busy_timeout(*cmd);
    cmd->add_flag("--json", o->json, "JSON output");
    cmd->callback([o] {
        Journal journal = open_journal(o->journal, Journal::Mode::read_only);
        auto list = journal.users();
        if (!list) fail(list.error());
        if (o->json) {
            Json out = Json::array();
            for (const auto& u : *list) out.push_back(user_json(u));
            std::cout << dump(out) << '\n';
            return;
        }
        if (list->empty()) std::cout << "no users: a server of this journal needs no token on loopback\n";
        for (const auto& u : *list) {
            const Json j = user_json(u);
            std::cout << printable(u.name) << "  " << enum_name(u.role);
            if (!u.sections.empty()) std::cout << "  sections " << printable(j["sections"].dump());
            if (!u.boards.empty()) std::cout << "  boards " << printable(j["boards"].dump());
            std::cout << "  added " << j["added"].value("at", std::string("?"));
            if (!u.added.by.empty()) std::cout << " by " << printable(u.added.by);
            if (u.revoked) std::cout << "  REVOKED " << j["revoked"].value("at", std::string("?"));
            std::cout << '\n';
        }
    });
}

void add_users_revoke(CLI::App& users) {
    struct Options {
        std::string journal, name;
    };
    auto o = std::make_shared<Options>();
    auto* cmd = users.add_subcommand("revoke", "Revoke a user's token: refused at once by every server of the journal");
    cmd->add_option("--journal", o->journal, "The journal file")->required();
    add_busy_timeout(*cmd);
    cmd->add_option("--name", o->name, "The user")->required();
    add_by(*cmd);
    cmd->callback([o] {
        Journal journal = open_journal(o->journal, Journal::Mode::open_existing);
        if (auto err = journal.revoke_user(o->name, author())) fail(*err);
        std::cout << "revoked " << printable(o->name) << '\n';
    });
}

}  // namespace

void add_users(CLI::App& app) {
    auto* cmd =
        app.add_subcommand("users", "The named users of a server (chief, arbiter, viewer), kept in the journal");
    cmd->require_subcommand(1);
    add_users_add(*cmd);
    add_users_list(*cmd);
    add_users_revoke(*cmd);
}

void add_verify(CLI::App& session) {
    struct Options {
        std::string journal, head;
        bool json = false;
    };
    auto o = std::make_shared<Options>();
    auto* cmd = session.add_subcommand(
        "verify",
        "Check the journal's hash chain: exit 0 when whole, 2 naming the first record changed, removed or "
        "inserted");
    cmd->add_option("--journal", o->journal, "The journal file")->required();
    add_busy_timeout(*cmd);
    cmd->add_option("--head", o->head,
                    "A head hash published earlier (an export, a printout): also check that it is one of the "
                    "chain's, so that a history rewritten whole is found");
    cmd->add_flag("--json", o->json, "{\"whole\",\"records\",\"head\",\"problem\"?,\"head_found\"?} on stdout");
    cmd->callback([o] {
        Journal journal = open_journal(o->journal, Journal::Mode::read_only);
        auto report = journal.verify(o->head);
        if (!report) fail(report.error());
        const bool head_ok = o->head.empty() || report->head_found;
        if (o->json) {
            Json j{{"whole", report->whole() && head_ok}, {"records", report->records}, {"head", report->head}};
            if (!report->whole()) j["problem"] = report->problem;
            if (!o->head.empty()) j["head_found"] = report->head_found;
            std::cout << dump(j) << '\n';
        } else if (report->whole() && head_ok) {
            std::cout << "whole: " << report->records << " records, head " << report->head << '\n';
        }
        if (!report->whole()) {
            InputError e(Code::broken_journal, o->journal + ": " + report->problem, "journal");
            if (o->json) e.reported_on_stdout();
            throw e;
        }
        if (!head_ok) {
            InputError e(Code::broken_journal,
                         o->journal + ": the head " + printable(o->head) +
                             " is none of the chain's: the history up to it was rewritten (or it is another journal's)",
                         "head");
            if (o->json) e.reported_on_stdout();
            throw e;
        }
    });
}

void add_delete(CLI::App& session) {
    struct Options {
        std::string journal, id;
    };
    auto o = std::make_shared<Options>();
    auto* cmd = session.add_subcommand(
        "delete", "Delete a session: no longer listed nor served; its records stay in the journal's chain");
    cmd->add_option("--journal", o->journal, "The journal file")->required();
    add_busy_timeout(*cmd);
    cmd->add_option("id", o->id, "Session id")->required();
    add_by(*cmd);
    cmd->callback([o] {
        const SessionId id = parse_id(o->id);
        Journal journal = open_journal(o->journal, Journal::Mode::open_existing);
        if (auto err = journal.remove(id, author())) fail(*err);
        std::cout << "deleted session " << id << '\n';
    });
}

}  // namespace arbiter::cli
