// http.cpp — the cpp-httplib adapter of `arbiter serve` (docs/api.md, README "The console").
#include "http.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <httplib.h>

#include "cli.hpp"
#include "hall_service.hpp"
#include "service.hpp"

namespace arbiter::serve {

namespace {

struct HostPort {
    std::string host;
    int port = 0;
};

HostPort parse_listen(const std::string& text) {
    const auto colon = text.rfind(':');
    HostPort hp;
    if (colon == std::string::npos || colon == 0)
        throw cli::InputError("--listen: expected HOST:PORT such as 127.0.0.1:8080, found '" + cli::printable(text) +
                              "'");
    hp.host = text.substr(0, colon);
    if (hp.host.size() > 2 && hp.host.front() == '[' && hp.host.back() == ']')
        hp.host = hp.host.substr(1, hp.host.size() - 2);
    const std::string port = text.substr(colon + 1);
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(port) > 65535)
        throw cli::InputError("--listen: the port must be a number from 0 to 65535, found '" + cli::printable(port) +
                              "'");
    hp.port = std::stoi(port);
    return hp;
}

bool loopback(const std::string& host) { return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0; }

std::string read_token(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw cli::InputError("--token-file: cannot read '" + cli::printable(path) + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string token = ss.str();
    while (!token.empty() && (token.back() == '\n' || token.back() == '\r' || token.back() == ' ')) token.pop_back();
    if (token.size() < 16 || token.find_first_of(" \t\r\n") != std::string::npos)
        throw cli::InputError("--token-file: '" + cli::printable(path) +
                              "' must hold one token of at least 16 characters without spaces");
    return token;
}

[[noreturn]] void fail(const JournalError& e) {
    if (e.code == JournalError::Code::io) throw std::runtime_error(e.message);
    throw cli::InputError(e.message);
}

// An error status that cpp-httplib answered itself (400 on a bad request line, 413, …) gets the
// JSON error body too.
const char* code_of(int status) {
    switch (status) {
        case 400: return "bad_request";
        case 404: return "not_found";
        case 405: return "method_not_allowed";
        case 413: return "too_large";
        case 414: return "uri_too_long";
        default: return "http_error";
    }
}

}  // namespace

int run(const ServeOptions& o) {
    const HostPort hp = parse_listen(o.listen);
    std::string token;
    if (!o.token_file.empty()) token = read_token(o.token_file);
    if (!loopback(hp.host) && token.empty())
        throw cli::InputError("--listen " + cli::printable(o.listen) +
                              " is not a loopback address: give --token-file FILE so that every request needs "
                              "Authorization: Bearer TOKEN");
    if (o.threads < 4 || o.threads > 10'000) throw cli::InputError("--threads: from 4 to 10000");

    auto journal = Journal::open(o.journal, Journal::Mode::create_if_missing);
    if (!journal) fail(journal.error());
    // One server a journal: its sessions live in this process's memory. The lock is held until
    // the process ends (the descriptor is never closed, so SQLite's own locks are not disturbed).
    const int lock_fd = ::open(o.journal.c_str(), O_RDONLY | O_CLOEXEC);
    if (lock_fd < 0 || ::flock(lock_fd, LOCK_EX | LOCK_NB) != 0)
        throw cli::InputError("journal '" + cli::printable(o.journal) +
                              "' is already served by another arbiter serve (stop it, or use another journal)");

    // SIGINT and SIGTERM end the server cleanly; a closed connection is an error return, not SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    ServiceOptions so;
    so.token = token;
    so.max_streams = o.threads > 64 ? o.threads - 32 : o.threads / 2;
    Service service(std::move(*journal), so);
    std::unique_ptr<watch::HallService> hall;
    if (!o.watch.empty()) {
        watch::HallOptions ho{.sources = o.watch,
                              .state = o.watch_state,
                              .interval_ms = o.watch_interval_ms,
                              .token = token,
                              .watch = {}};
        try {
            hall = std::make_unique<watch::HallService>(std::move(ho));
        } catch (const std::runtime_error& e) {
            throw cli::InputError("--watch-state: " + std::string(e.what()));
        }
    }

    httplib::Server server;
    const std::size_t threads = o.threads;
    server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    server.set_read_timeout(5, 0);
    server.set_write_timeout(5, 0);
    server.set_keep_alive_timeout(5);
    server.set_keep_alive_max_count(10'000);
    server.set_payload_max_length(max_pgn_body);
    server.set_tcp_nodelay(true);  // headers and body are two writes: without it, Nagle + delayed ACK add 40 ms
    auto handler = [&service, &hall](const httplib::Request& in, httplib::Response& out) {
        Request req;
        req.method = in.method;
        req.path = in.path;
        for (const auto& [k, v] : in.params) req.query.emplace(k, v);
        req.authorization = in.get_header_value("Authorization");
        req.body = in.body;
        Response r = hall && watch::HallService::handles(req.path) ? hall->handle(req) : service.handle(req);
        out.status = r.status;
        for (const auto& [k, v] : r.headers) out.set_header(k, v);
        if (r.stream) {
            auto gen = std::move(r.stream);
            out.set_chunked_content_provider(r.content_type, [gen](std::size_t, httplib::DataSink& sink) {
                std::string chunk;
                if (!gen(chunk)) {
                    sink.done();
                    return true;
                }
                return sink.write(chunk.data(), chunk.size());
            });
        } else {
            out.set_content(r.body, r.content_type);
        }
    };
    server.Get(".*", handler);
    server.Post(".*", handler);
    server.Put(".*", handler);
    server.Patch(".*", handler);
    server.Delete(".*", handler);
    server.Options(".*", handler);
    server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return;
        res.set_content(std::string(R"({"error":{"code":")") + code_of(res.status) + R"(","message":"HTTP )" +
                            std::to_string(res.status) + R"("}})" + "\n",
                        "application/json");
    });
    server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        res.status = 500;
        res.set_content(R"({"error":{"code":"internal","message":"internal error"}})"
                        "\n",
                        "application/json");
    });

    int port = hp.port;
    if (port == 0) {
        port = server.bind_to_any_port(hp.host);
        if (port < 0) throw cli::InputError("--listen " + cli::printable(o.listen) + ": cannot bind");
    } else if (!server.bind_to_port(hp.host, port)) {
        throw cli::InputError("--listen " + cli::printable(o.listen) +
                              ": cannot bind (in use, or not an address of this machine)");
    }
    const bool v6 = hp.host.find(':') != std::string::npos;
    std::cout << "listening on http://" << (v6 ? "[" + hp.host + "]" : hp.host) << ":" << port << std::endl;

    std::thread waiter([&] {
        int sig = 0;
        sigwait(&signals, &sig);
        if (hall) hall->stop();
        service.stop();
        server.stop();
    });
    server.listen_after_bind();
    if (hall) hall->stop();
    service.stop();
    if (waiter.joinable()) {
        // listen_after_bind ended without a signal (it failed): wake the waiter.
        pthread_kill(waiter.native_handle(), SIGTERM);
        waiter.join();
    }
    return 0;
}

}  // namespace arbiter::serve
