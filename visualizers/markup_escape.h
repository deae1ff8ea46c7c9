// Escaping text for SVG and HTML (both XML-ish): element content and quoted attribute values.
#ifndef VISUALIZERS_MARKUP_ESCAPE_H_
#define VISUALIZERS_MARKUP_ESCAPE_H_

#include <string>
#include <string_view>

namespace tfa::viz {

// Replaces & < > " ' with entities; safe in element content and in either attribute quoting.
std::string EscapeMarkup(std::string_view text);

}  // namespace tfa::viz

#endif  // VISUALIZERS_MARKUP_ESCAPE_H_
