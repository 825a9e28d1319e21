// cmd_serve.cpp — `arbiter serve --journal FILE [--listen HOST:PORT] [--token-file F] [--tls-cert F
// --tls-key F | --insecure-http] [--watch SOURCE]...`: the JSON API and the web console over the
// sessions of a journal (serve/, docs/api.md), with the hall monitor's routes
// (watch/hall_service.hpp) joined to it here.
#include "cli.hpp"
#include "hall_service.hpp"
#include "http.hpp"

namespace arbiter::cli {

void add_serve(CLI::App& app) {
    auto* cmd = app.add_subcommand("serve", "Serve the sessions of a journal: JSON API (/api/v1) and web console");
    // The hall monitor (docs/watch.md): PGN sources to follow, shown on /hall.html; its state
    // file and how often it reads them.
    struct Options {
        serve::ServeOptions serve;
        std::vector<std::string> watch, watch_streams;
        std::string watch_state, watch_ca_file;
        int watch_interval_ms = 500;
    };
    auto all = std::make_shared<Options>();
    serve::ServeOptions* o = &all->serve;
    cmd->add_option("--journal", o->journal, "The journal file (created when missing)")->required();
    cmd->add_option("--listen", o->listen,
                    "HOST:PORT to listen on (default 127.0.0.1:8080; port 0 picks a free one); an address other "
                    "than loopback needs --token-file, and --tls-cert/--tls-key or --insecure-http");
    cmd->add_option("--token-file", o->token_file,
                    "A file holding the token (16+ characters) every API request must give as Authorization: "
                    "Bearer TOKEN");
    cmd->add_option("--tls-cert", o->tls_cert,
                    "The server's certificate, PEM (its chain after it): serve HTTPS only; read again on SIGHUP. "
                    "Needs --tls-key");
    cmd->add_option("--tls-key", o->tls_key,
                    "The certificate's private key, PEM (not encrypted); read again on SIGHUP");
    cmd->add_flag("--accept-broken-journal", o->accept_broken_journal,
                  "Serve a journal whose hash chain does not match its rows (arbiter session verify names the "
                  "record); every page then warns");
    cmd->add_flag("--insecure-http", o->insecure_http,
                  "Serve plain HTTP on an address other than loopback (tokens and events readable on that network)");
    cmd->add_option("--threads", o->threads,
                    "Connection threads (one a connection, SSE listeners included; default " +
                        std::to_string(serve::default_threads) + ")")
        ->check(whole_number(serve::min_threads, serve::max_threads));
    cmd->add_option("--watch", all->watch,
                    "Follow these PGN sources (files, directories, http(s):// URLs) on the hall page /hall.html, as "
                    "arbiter watch does");
    cmd->add_option("--watch-state", all->watch_state, "The hall monitor's state file (SQLite), as watch --state");
    cmd->add_option("--watch-stream", all->watch_streams, "Streams of PGN games to follow too, as watch --stream");
    cmd->add_option("--watch-ca-file", all->watch_ca_file, "CA certificates for https feeds, as watch --ca-file");
    cmd->add_option("--watch-interval-ms", all->watch_interval_ms,
                    "How often the --watch sources are read (default 500)")
        ->check(whole_number(10, 3'600'000));
    cmd->add_option("--request-timeout", o->request_timeout_s,
                    "Seconds a request (line, headers, body) may take to arrive, however slowly it drips; then "
                    "the connection is closed (default " +
                        std::to_string(serve::ServeOptions{}.request_timeout_s) + ")")
        ->check(whole_number(1, serve::max_request_timeout_s));
    cmd->callback([all] {
        if (!all->watch.empty() || !all->watch_streams.empty())
            all->serve.routes = [a = all.get()](face::Guard guard) -> std::unique_ptr<face::Routes> {
                watch::HallOptions ho;
                ho.sources = a->watch;
                ho.streams = a->watch_streams;
                ho.tls.ca_file = a->watch_ca_file;
                ho.state = a->watch_state;
                ho.interval_ms = a->watch_interval_ms;
                ho.guard = std::move(guard);
                try {
                    return std::make_unique<watch::HallService>(std::move(ho));
                } catch (const std::runtime_error& e) {
                    throw InputError("--watch-state: " + std::string(e.what()));
                } catch (const std::invalid_argument& e) {  // a URL that does not parse
                    throw InputError("--watch: " + std::string(e.what()));
                }
            };
        const int status = serve::run(all->serve);
        if (status != 0) throw InputError("serve ended", status);
    });
}

}  // namespace arbiter::cli
