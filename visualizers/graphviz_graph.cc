#include "visualizers/graphviz_graph.h"

#include <graphviz/gvc.h>

#include <cassert>
#include <mutex>

namespace tfa::viz {
namespace {

std::mutex& GraphvizMutex() {
  static std::mutex mutex;
  return mutex;
}

// cgraph's API takes `char*` but copies (agstrdup) or only reads every string it is given, so
// handing it a std::string's buffer is safe; this is the one place that drops the const.
char* CString(const std::string& text) { return const_cast<char*>(text.c_str()); }

// Where Graphviz's messages go while a call holds the lock (agseterrf takes a plain function).
std::string* g_messages = nullptr;

int CollectGraphvizMessage(char* message) {
  if (g_messages != nullptr) *g_messages += message;
  return 0;
}

// Holds the Graphviz lock and routes Graphviz's messages into `messages` for its lifetime.
class GraphvizCall {
 public:
  GraphvizCall() : lock_(GraphvizMutex()) {
    g_messages = &messages_;
    previous_ = agseterrf(CollectGraphvizMessage);
  }
  ~GraphvizCall() {
    agseterrf(previous_);
    g_messages = nullptr;
  }
  GraphvizCall(const GraphvizCall&) = delete;
  GraphvizCall& operator=(const GraphvizCall&) = delete;

  Status Error(const std::string& what) const {
    std::string message = what;
    if (!messages_.empty()) {
      message += ": ";
      // One line: Graphviz messages end with newlines.
      for (char c : messages_) message += (c == '\n') ? ' ' : c;
      while (!message.empty() && message.back() == ' ') message.pop_back();
    }
    return Status::Error(message);
  }

 private:
  std::lock_guard<std::mutex> lock_;
  std::string messages_;
  agusererrf previous_ = nullptr;
};

// agwrite writes through the graph's I/O discipline; this one appends to a std::string channel.
int AppendToString(void* channel, const char* text) {
  static_cast<std::string*>(channel)->append(text);
  return 0;
}
int FlushNothing(void*) { return 0; }

// Reading is never done through it; cgraph's own reader stays in place.
Agiodisc_t g_string_io = {AgIoDisc.afread, AppendToString, FlushNothing};
Agdisc_t g_string_disc = {&AgMemDisc, &AgIdDisc, &g_string_io};

// One gvc context for the whole process, never freed: Graphviz 2.42's pango plugin keeps
// pointers into the context's font data after gvFreeContext, so a second context's layout reads
// freed memory (AddressSanitizer: heap-use-after-free in textspan_size). Renderings are already
// serialized (GraphvizCall), so sharing it is safe.
GVC_t* SharedContext() {
  static GVC_t* const context = gvContext();
  return context;
}

// Frees the layout made with the shared context on every return path.
class Layout {
 public:
  explicit Layout(Agraph_t* graph) : graph_(graph) {}
  ~Layout() {
    if (laid_out_) gvFreeLayout(SharedContext(), graph_);
  }
  Layout(const Layout&) = delete;
  Layout& operator=(const Layout&) = delete;

  void set_laid_out() { laid_out_ = true; }

 private:
  Agraph_t* graph_;
  bool laid_out_ = false;
};

}  // namespace

GraphvizGraph::GraphvizGraph(const std::string& name) {
  GraphvizCall call;
  graph_ = agopen(CString(name), Agdirected, &g_string_disc);
  assert(graph_ != nullptr && "agopen failed (out of memory)");
}

GraphvizGraph::~GraphvizGraph() {
  GraphvizCall call;
  agclose(graph_);
}

void GraphvizGraph::Declare(int kind, const std::string& attribute,
                            const std::string& default_value) {
  GraphvizCall call;
  agattr(graph_, kind, CString(attribute), CString(default_value));
}

Agraph_t* GraphvizGraph::AddSubgraph(Agraph_t* parent, const std::string& name) {
  GraphvizCall call;
  return agsubg(parent, CString(name), 1);
}

Agnode_t* GraphvizGraph::AddNode(Agraph_t* parent, const std::string& name) {
  GraphvizCall call;
  Agnode_t* node = agnode(graph_, CString(name), 1);
  if (parent != graph_) agsubnode(parent, node, 1);
  return node;
}

Agedge_t* GraphvizGraph::AddEdge(Agnode_t* tail, Agnode_t* head) {
  GraphvizCall call;
  return agedge(graph_, tail, head, nullptr, 1);
}

void GraphvizGraph::Set(void* object, const std::string& attribute, const std::string& value) {
  GraphvizCall call;
  Agsym_t* symbol = agattrsym(object, CString(attribute));
  assert(symbol != nullptr && "Set() on an attribute that was not declared");
  agxset(object, symbol, CString(value));
}

Result<std::string> GraphvizGraph::WriteDot() {
  GraphvizCall call;
  std::string dot;
  if (agwrite(graph_, &dot) != 0) return call.Error("graphviz: writing DOT failed");
  return dot;
}

Result<std::string> GraphvizGraph::Render(const std::string& engine, const std::string& format) {
  GraphvizCall call;
  GVC_t* context = SharedContext();
  if (context == nullptr) return call.Error("graphviz: cannot create a rendering context");
  Layout layout(graph_);
  if (gvLayout(context, graph_, engine.c_str()) != 0) {
    return call.Error("graphviz: layout engine '" + engine +
                      "' failed (is libgvc's plugin configuration installed?)");
  }
  layout.set_laid_out();
  char* data = nullptr;
  unsigned int length = 0;
  if (gvRenderData(context, graph_, format.c_str(), &data, &length) != 0 || data == nullptr) {
    if (data != nullptr) gvFreeRenderData(data);
    return call.Error("graphviz: rendering format '" + format + "' failed");
  }
  std::string rendered(data, length);
  gvFreeRenderData(data);
  return rendered;
}

}  // namespace tfa::viz
