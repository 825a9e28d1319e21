// connection.cpp — the waits and addresses of a connection (connection.hpp).
#include "connection.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>

namespace arbiter::serve {

long long left(Clock::time_point end, long long cap) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
    return std::clamp<long long>(ms, 0, cap);
}

int wait_for(int fd, short events, long long ms) {
    pollfd p{fd, events, 0};
    for (;;) {
        const int r = ::poll(&p, 1, static_cast<int>(std::clamp<long long>(ms, 0, 1'000'000)));
        if (r < 0 && errno == EINTR) continue;
        return r;
    }
}

std::string address(const sockaddr_storage& a, int& port) {
    char text[INET6_ADDRSTRLEN] = {};
    if (a.ss_family == AF_INET6) {
        const auto& in6 = reinterpret_cast<const sockaddr_in6&>(a);
        ::inet_ntop(AF_INET6, &in6.sin6_addr, text, sizeof text);
        port = ntohs(in6.sin6_port);
    } else {
        const auto& in4 = reinterpret_cast<const sockaddr_in&>(a);
        ::inet_ntop(AF_INET, &in4.sin_addr, text, sizeof text);
        port = ntohs(in4.sin_port);
    }
    return text;
}

}  // namespace arbiter::serve
