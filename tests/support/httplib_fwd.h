// cpp-httplib's server types, declared for headers that hold a server by pointer
// without including httplib.h (2,000 lines, and defines that must match its library).
#pragma once

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib
