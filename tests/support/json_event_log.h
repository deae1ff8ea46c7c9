// A SAX handler (nlohmann's interface) that writes down the events it is given, one string each,
// to compare two readers of the same JSON: the run reader and nlohmann's own parser.
#ifndef TESTS_SUPPORT_JSON_EVENT_LOG_H_
#define TESTS_SUPPORT_JSON_EVENT_LOG_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tfa::testing {

struct JsonEventLog {
  std::vector<std::string> events;

  bool Add(std::string event) {
    events.push_back(std::move(event));
    return true;
  }
  bool null() { return Add("null"); }
  bool boolean(bool b) { return Add(b ? "true" : "false"); }
  bool number_integer(int64_t i) { return Add("int " + std::to_string(i)); }
  bool number_unsigned(uint64_t u) { return Add("unsigned " + std::to_string(u)); }
  // By its bits: -0.0 and 0.0 differ.
  bool number_float(double d, const std::string&) {
    return Add("float " + std::to_string(std::bit_cast<uint64_t>(d)));
  }
  bool string(std::string& s) { return Add("string " + s); }
  bool binary(nlohmann::json::binary_t&) { return Add("binary"); }
  bool start_object(size_t) { return Add("{"); }
  bool start_array(size_t) { return Add("["); }
  bool end_object() { return Add("}"); }
  bool end_array() { return Add("]"); }
  bool key(std::string& k) { return Add("key " + k); }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception&) { return false; }
};

// nlohmann's events for the JSON array '[' run ']', or nullopt where it refuses that text.
inline std::optional<std::vector<std::string>> NlohmannRunEvents(const std::string& run) {
  JsonEventLog log;
  if (!nlohmann::json::sax_parse("[" + run + "]", &log)) return std::nullopt;
  return log.events;
}

}  // namespace tfa::testing

#endif  // TESTS_SUPPORT_JSON_EVENT_LOG_H_
