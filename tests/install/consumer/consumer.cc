// Loads a model through the installed library and prints its node count.
#include <iostream>

#include "libanalysis/model/model_loader.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  auto model = tfa::LoadModelFile(argv[1]);
  if (!model.ok()) {
    std::cerr << model.status().message() << "\n";
    return 2;
  }
  std::cout << "nodes: " << model->subgraphs[0].nodes.size() << "\n";
  return 0;
}
