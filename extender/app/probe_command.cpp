#include "extender/app/probe_command.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <charconv>
#include <memory>
#include <ostream>
#include <string>

#include "koord/common/program.hpp"

namespace koord::extender::app {
namespace {

constexpr std::size_t kMaxBodyBytes = 4096;

std::size_t keepHead(char* data, std::size_t size, std::size_t count, void* user) {
  auto* body = static_cast<std::string*>(user);
  const std::size_t bytes = size * count;
  body->append(data, std::min(bytes, kMaxBodyBytes - std::min(body->size(), kMaxBodyBytes)));
  return bytes;
}

std::string firstLine(const std::string& body) {
  const std::string line = body.substr(0, body.find('\n'));
  return line.empty() ? "(empty body)" : line;
}

}  // namespace

int runProbe(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  FlagSet flags("koord-extender probe",
                "GETs the extender's health or readiness endpoint and exits 0 when it answers "
                "2xx,\n1 otherwise; for exec probes (the extender listens on 127.0.0.1).");
  flags.addString("url", "http://127.0.0.1:10262/healthz", "the URL to GET");
  flags.addString("timeout-ms", "2000", "give up after this many milliseconds");
  return runProgram(
      flags, "koord-extender probe", argc, argv,
      [&](const FlagSet& parsed) {
        long timeout_ms = 0;
        const std::string& timeout = parsed.get("timeout-ms");
        const auto [end, ec] =
            std::from_chars(timeout.data(), timeout.data() + timeout.size(), timeout_ms);
        if (ec != std::errc() || end != timeout.data() + timeout.size() || timeout_ms <= 0) {
          err << "koord-extender probe: --timeout-ms: '" << timeout
              << "' is not a positive number\n";
          return 2;
        }
        std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(),
                                                                 &curl_easy_cleanup);
        if (curl == nullptr) {
          err << "koord-extender probe: failed to start libcurl\n";
          return 1;
        }
        std::string body;
        const std::string& url = parsed.get("url");
        curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
        curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT_MS, timeout_ms);
        curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, keepHead);
        curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &body);
        const CURLcode code = curl_easy_perform(curl.get());
        if (code != CURLE_OK) {
          err << "koord-extender probe: GET " << url << ": " << curl_easy_strerror(code) << "\n";
          return 1;
        }
        long status = 0;
        curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
        if (status < 200 || status > 299) {
          err << "koord-extender probe: GET " << url << ": HTTP " << status << ": "
              << firstLine(body) << "\n";
          return 1;
        }
        out << "ok\n";
        return 0;
      },
      out, err);
}

}  // namespace koord::extender::app
