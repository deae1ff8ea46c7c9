#include "runtime/delegates/cpu_partition_kernel.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "libanalysis/model/model_loader.h"
#include "runtime/delegates/testing/delegate_run_checks.h"
#include "runtime/kernels/cpu/cpu_kernels.h"
#include "runtime/model_data.h"

namespace tfa::runtime {
namespace {

// input -> ADD -> t0 -> ADD -> t1 -> ADD -> t2 -> ADD -> output, each adding the constant [1]:
// one partition of four steps whose internal tensors t0 (steps 0-1), t1 (1-2) and t2 (2-3) are
// 192 bytes each ([1,4,4,3] float32).
TEST(CpuPartitionKernelTest, InternalTensorsWhoseLifetimesDoNotOverlapShareBytes) {
  ModelBuilder builder("add_chain");
  builder.AddSubgraph("main");
  const std::vector<int32_t> shape = {1, 4, 4, 3};
  const int32_t input = builder.AddTensor(0, "input", TensorType::kFloat32, shape);
  const int32_t one = builder.AddConstant(0, "one", TensorType::kFloat32, {1}, FloatBytes({1}));
  int32_t last = input;
  for (const char* name : {"t0", "t1", "t2", "output"}) {
    const int32_t out = builder.AddTensor(0, name, TensorType::kFloat32, shape);
    builder.AddNode(0, "ADD", {last, one}, {out});
    last = out;
  }
  builder.SetInputs(0, {input});
  builder.SetOutputs(0, {last});
  SyntheticModel synthetic = std::move(builder).Finish();
  const std::string path =
      testing::WriteTempFile("add_chain.tflite", WriteTflite(synthetic.model, synthetic.data));
  auto model = LoadModelFile(path);
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto data = ModelData::Open(path);
  ASSERT_TRUE(data.ok()) << data.status().message();
  const Subgraph& graph = model->subgraphs[0];
  std::vector<RuntimeTensor> tensors(graph.tensors.size());
  for (size_t t = 0; t < tensors.size(); ++t) {
    tensors[t].type = graph.tensors[t].type;
    tensors[t].shape.assign(graph.tensors[t].shape.begin(), graph.tensors[t].shape.end());
    tensors[t].bytes = graph.tensors[t].bytes_or_zero();
    tensors[t].is_constant = graph.tensors[t].is_constant();
    if (tensors[t].is_constant)
      tensors[t].data =
          const_cast<uint8_t*>((*data)->TensorData(0, static_cast<int32_t>(t)).data());
  }
  const DelegatePartition partition{&graph,   {0, 1, 2, 3}, {input}, {last},
                                    &tensors, data->get(),  0,       nullptr};

  auto kernel = CpuPartitionKernel::Create(partition, &FindCpuKernel);
  ASSERT_TRUE(kernel.ok()) << kernel.status().message();
  // t0 at 0, t1 above it, t2 at 0 again once t0 is dead: two tensors' bytes, not three.
  EXPECT_EQ((*kernel)->internal_bytes(), 2u * 192);

  std::vector<float> in(48), out(48);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  RuntimeTensor input_tensor = tensors[static_cast<size_t>(input)];
  RuntimeTensor output_tensor = tensors[static_cast<size_t>(last)];
  input_tensor.data = reinterpret_cast<uint8_t*>(in.data());
  output_tensor.data = reinterpret_cast<uint8_t*>(out.data());
  KernelContext context;
  context.inputs = {&input_tensor};
  context.outputs = {&output_tensor};
  ASSERT_TRUE((*kernel)->Prepare(context).ok());
  ASSERT_TRUE((*kernel)->Eval(context).ok());
  for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], in[i] + 4) << "element " << i;
}

}  // namespace
}  // namespace tfa::runtime
