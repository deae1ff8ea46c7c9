#include "libanalysis/tflm/signal_kernels.h"

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/tflm/kernel_prepare_checks.h"
#include "libanalysis/tflm/micro_allocator_replay.h"
#include "tests/support/custom_op_graph.h"
#include "tests/support/small_graphs.h"

namespace tfa::tflm {
namespace {

using testing::ArenaTensor;
using testing::Constant;
using testing::CustomOpGraph;
using testing::Graph;
using testing::Op;
using T = TensorType;

const Build kHost{Target::kHost64};
const Build kMcu{Target::kMcu32};

// A flexbuffer map, as the signal library's converter writes the custom options.
std::vector<uint8_t> Options(const std::function<void(flexbuffers::Builder&)>& fields) {
  flexbuffers::Builder fbb;
  fbb.Map([&] { fields(fbb); });
  fbb.Finish();
  return fbb.GetBuffer();
}

KernelRequests RequestsOf(const Build& build, const Subgraph& graph) {
  auto requests = RequestsOfNode(build, graph, graph.nodes[0]);
  EXPECT_TRUE(requests.ok()) << requests.status().message();
  return requests.ok() ? requests.value() : KernelRequests{};
}

std::string ErrorOf(const Subgraph& graph) {
  auto requests = RequestsOfNode(kHost, graph, graph.nodes[0]);
  return requests.ok() ? "ok" : requests.status().message();
}

std::string FailureOf(const Subgraph& graph) {
  return PrepareFailure(graph, graph.nodes[0]).value_or("passes");
}

Subgraph Rfft(const std::string& op, T type, int32_t fft_length, std::vector<int32_t> in,
              std::vector<int32_t> out, T tensor_type) {
  return CustomOpGraph(
      op, {ArenaTensor(std::move(in), tensor_type), ArenaTensor(std::move(out), tensor_type)}, {0},
      {1}, Options([&](flexbuffers::Builder& b) {
        b.Int("T", static_cast<int>(type));
        b.Int("fft_length", fft_length);
      }));
}

// micro_mutable_op_resolver.h registers the signal library under these custom names.
TEST(TflmSignalKernels, ResolverNamesEveryAddCustomOfTheSignalLibrary) {
  EXPECT_EQ(ResolverMethod("SignalWindow"), "AddWindow");
  EXPECT_EQ(ResolverMethod("SignalRfft"), "AddRfft");
  EXPECT_EQ(ResolverMethod("SignalIrfft"), "AddIrfft");
  EXPECT_EQ(ResolverMethod("SignalPCAN"), "AddPCAN");
  EXPECT_EQ(ResolverMethod("SignalFilterBankSpectralSubtraction"),
            "AddFilterBankSpectralSubtraction");
  EXPECT_EQ(KernelSource("SignalStacker"), "signal/micro/kernels/stacker.cc");
  EXPECT_FALSE(ResolverMethod("Window").has_value());
}

// rfft.cc: TfLiteAudioFrontendRfftParams<T> (48 / 32 bytes), Init's kiss_fftr state and a
// scratch frame of fft_length values. kiss_fftr_alloc(512) for int16: three pointers, the
// 256-point kiss_fft_state (268 bytes with its first twiddle, 255 more of 4 bytes) and 384
// complex values of scratch and super twiddles: 24 + 268 + 1020 + 1536 = 2848 on a 64-bit host.
TEST(TflmSignalKernels, RfftStateFollowsKissFftr) {
  const Subgraph int16 = Rfft("SignalRfft", T::kInt16, 512, {400}, {514}, T::kInt16);
  KernelRequests host = RequestsOf(kHost, int16);
  EXPECT_EQ(host.op_data, 48u);
  EXPECT_EQ(host.init_buffers, (std::vector<uint64_t>{2848}));
  EXPECT_EQ(host.scratch_buffers, (std::vector<uint64_t>{1024}));
  EXPECT_TRUE(host.persistent_buffers.empty());
  KernelRequests mcu = RequestsOf(kMcu, int16);
  EXPECT_EQ(mcu.op_data, 32u);
  EXPECT_EQ(mcu.init_buffers, (std::vector<uint64_t>{2836}));
  // float: 8-byte complex values, 24 + 272 + 2040 + 3072.
  const Subgraph float32 = Rfft("SignalRfft", T::kFloat32, 512, {400}, {514}, T::kFloat32);
  EXPECT_EQ(RequestsOf(kHost, float32).init_buffers, (std::vector<uint64_t>{5408}));
  EXPECT_EQ(RequestsOf(kHost, float32).scratch_buffers, (std::vector<uint64_t>{2048}));
}

// irfft.cc: no scratch; the float kernel keeps IrfftFloatState (16 / 8) before the kiss state.
TEST(TflmSignalKernels, IrfftStateAndItsFloatHeader) {
  const Subgraph float32 = Rfft("SignalIrfft", T::kFloat32, 512, {514}, {512}, T::kFloat32);
  KernelRequests host = RequestsOf(kHost, float32);
  EXPECT_EQ(host.op_data, 32u);
  EXPECT_EQ(host.init_buffers, (std::vector<uint64_t>{5408 + 16}));
  EXPECT_TRUE(host.scratch_buffers.empty());
  KernelRequests mcu = RequestsOf(kMcu, float32);
  EXPECT_EQ(mcu.op_data, 24u);
  EXPECT_EQ(mcu.init_buffers, (std::vector<uint64_t>{5396 + 8}));
  // int16, 256 points: 24 + 268 + 4 * 127 + 4 * 192.
  const Subgraph int16 = Rfft("SignalIrfft", T::kInt16, 256, {258}, {256}, T::kInt16);
  EXPECT_EQ(RequestsOf(kHost, int16).init_buffers, (std::vector<uint64_t>{1568}));
}

TEST(TflmSignalKernels, FftOptionsTheKernelCannotUseAreRefused) {
  EXPECT_EQ(ErrorOf(Rfft("SignalRfft", T::kInt16, 400 + 1, {400}, {402}, T::kInt16)),
            "SignalRfft's option fft_length (401) is not a positive even number: kiss_fftr_alloc "
            "allocates no state for it");
  EXPECT_EQ(ErrorOf(Rfft("SignalRfft", T::kInt8, 512, {400}, {514}, T::kInt8)),
            "SignalRfft's T is INT8: its Init returns no user data for a type but INT16, INT32 "
            "and FLOAT32, and Prepare then reads it (rfft.cc)");
  Subgraph no_length =
      CustomOpGraph("SignalRfft", {ArenaTensor({4}, T::kInt16), ArenaTensor({6}, T::kInt16)}, {0},
                    {1}, Options([](flexbuffers::Builder& b) { b.Int("T", 7); }));
  EXPECT_EQ(ErrorOf(no_length),
            "SignalRfft's option fft_length is missing: the map has 1 values and the kernel reads "
            "value 1");
  Subgraph not_flexbuffer =
      CustomOpGraph("SignalRfft", {ArenaTensor({4}, T::kInt16), ArenaTensor({6}, T::kInt16)}, {0},
                    {1}, {1, 2, 3});
  EXPECT_EQ(ErrorOf(not_flexbuffer),
            "SignalRfft's custom options are not a valid flexbuffer (3 bytes)");
  Subgraph float_length =
      CustomOpGraph("SignalRfft", {ArenaTensor({4}, T::kInt16), ArenaTensor({6}, T::kInt16)}, {0},
                    {1}, Options([](flexbuffers::Builder& b) {
                      b.Int("T", 7);
                      b.Float("fft_length", 8.0f);
                    }));
  EXPECT_EQ(ErrorOf(float_length),
            "SignalRfft's option fft_length (value 1, key 'fft_length') is not an integer");
}

// rfft.cc RfftPrepare checks the tensors against the T Init read.
TEST(TflmSignalKernels, RfftPrepareRefusesTensorsOfAnotherType) {
  EXPECT_EQ(FailureOf(Rfft("SignalRfft", T::kInt16, 512, {400}, {514}, T::kInt32)),
            "input->type != kTfLiteInt16 (INT32 != INT16) (rfft.cc)");
  EXPECT_EQ(FailureOf(Rfft("SignalRfft", T::kInt16, 512, {400}, {1, 514}, T::kInt16)),
            "NumDimensions(input) != NumDimensions(output) (1 != 2) (rfft.cc)");
  EXPECT_EQ(FailureOf(Rfft("SignalRfft", T::kInt16, 512, {400}, {514}, T::kInt16)), "passes");
}

// filter_bank.cc: TFLMSignalFilterBankParams (64 / 36) and Init's work area of num_channels + 1
// uint64; filter_bank_spectral_subtraction.cc: 56 / 44 and a uint32 noise estimate per channel.
TEST(TflmSignalKernels, FilterBankAndSpectralSubtractionState) {
  std::vector<Tensor> bank_tensors = {ArenaTensor({257}, T::kUInt32)};
  for (int i = 0; i < 5; ++i) bank_tensors.push_back(Constant({41}, T::kInt16));
  bank_tensors.push_back(ArenaTensor({40}, T::kUInt64));
  const Subgraph bank =
      CustomOpGraph("SignalFilterBank", bank_tensors, {0, 1, 2, 3, 4, 5}, {6},
                    Options([](flexbuffers::Builder& b) { b.Int("num_channels", 40); }));
  EXPECT_EQ(RequestsOf(kHost, bank).op_data, 64u);
  EXPECT_EQ(RequestsOf(kHost, bank).init_buffers, (std::vector<uint64_t>{328}));
  EXPECT_EQ(RequestsOf(kMcu, bank).op_data, 36u);
  EXPECT_EQ(FailureOf(bank), "passes");

  const auto subtraction_options = Options([](flexbuffers::Builder& b) {
    b.Int("alternate_one_minus_smoothing", 0);
    b.Int("alternate_smoothing", 0);
    b.Bool("clamping", false);
    b.Int("min_signal_remaining", 655);
    b.Int("num_channels", 40);
    b.Int("one_minus_smoothing", 15729);
    b.Int("smoothing", 655);
    b.Int("smoothing_bits", 10);
    b.Int("spectral_subtraction_bits", 14);
  });
  const Subgraph subtraction = CustomOpGraph(
      "SignalFilterBankSpectralSubtraction",
      {ArenaTensor({40}, T::kUInt32), ArenaTensor({40}, T::kUInt32), ArenaTensor({40}, T::kUInt32)},
      {0}, {1, 2}, subtraction_options);
  EXPECT_EQ(RequestsOf(kHost, subtraction).op_data, 56u);
  EXPECT_EQ(RequestsOf(kHost, subtraction).init_buffers, (std::vector<uint64_t>{160}));
  EXPECT_EQ(RequestsOf(kMcu, subtraction).op_data, 44u);
}

// delay.cc: TFLMSignalFrontendDelayParams (32 / 20); Prepare's two pointer arrays, then per
// outer row a circular buffer of frame size + delay: CircularBuffer (40 / 24) and two int16 per
// element, 40 + 4 * 240 on a 64-bit host.
TEST(TflmSignalKernels, DelayKeepsACircularBufferPerRow) {
  const Subgraph delay = CustomOpGraph(
      "SignalDelay", {ArenaTensor({2, 160}, T::kInt16), ArenaTensor({2, 160}, T::kInt16)}, {0}, {1},
      Options([](flexbuffers::Builder& b) { b.Int("delay_length", 80); }));
  KernelRequests host = RequestsOf(kHost, delay);
  EXPECT_EQ(host.op_data, 32u);
  EXPECT_EQ(host.persistent_buffers, (std::vector<uint64_t>{16, 16, 1000, 1000}));
  KernelRequests mcu = RequestsOf(kMcu, delay);
  EXPECT_EQ(mcu.op_data, 20u);
  EXPECT_EQ(mcu.persistent_buffers, (std::vector<uint64_t>{8, 8, 984, 984}));
}

// framer.cc: capacity is the frame size rounded up to a multiple of the step (400 by 160: 480).
TEST(TflmSignalKernels, FramerRoundsItsCapacityToTheStep) {
  auto framer = [](std::vector<int32_t> in, std::vector<int32_t> out, int32_t step) {
    return CustomOpGraph("SignalFramer",
                         {ArenaTensor(std::move(in), T::kInt16),
                          ArenaTensor(std::move(out), T::kInt16), ArenaTensor({}, T::kBool)},
                         {0}, {1, 2}, Options([step](flexbuffers::Builder& b) {
                           b.Int("frame_size", 400);
                           b.Int("frame_step", step);
                           b.Bool("prefill", true);
                         }));
  };
  KernelRequests host = RequestsOf(kHost, framer({320}, {2, 400}, 160));
  EXPECT_EQ(host.op_data, 40u);
  EXPECT_EQ(host.persistent_buffers, (std::vector<uint64_t>{8, 8, 1960}));
  KernelRequests mcu = RequestsOf(kMcu, framer({320}, {2, 400}, 160));
  EXPECT_EQ(mcu.op_data, 28u);
  EXPECT_EQ(mcu.persistent_buffers, (std::vector<uint64_t>{4, 4, 1944}));
  EXPECT_EQ(FailureOf(framer({320}, {2, 400}, 160)), "passes");
  EXPECT_EQ(FailureOf(framer({300}, {2, 400}, 160)),
            "innermost_dim % params->frame_step != 0 (140 != 0) (framer.cc)");
  EXPECT_EQ(FailureOf(framer({320}, {400}, 160)),
            "NumDimensions(input) + 1 != NumDimensions(output) (2 != 1) (framer.cc)");
  EXPECT_EQ(ErrorOf(framer({320}, {2, 400}, 0)),
            "SignalFramer's option frame_step (0) is not positive: framer.cc's Prepare divides by "
            "it");
}

// overlap_add.cc: a pointer array, then a frame of T per outer row.
TEST(TflmSignalKernels, OverlapAddKeepsAFramePerRow) {
  const Subgraph overlap_add = CustomOpGraph(
      "SignalOverlapAdd", {ArenaTensor({3, 512}, T::kFloat32), ArenaTensor({480}, T::kFloat32)},
      {0}, {1}, Options([](flexbuffers::Builder& b) {
        b.Int("T", 0);
        b.Int("frame_step", 160);
      }));
  KernelRequests host = RequestsOf(kHost, overlap_add);
  EXPECT_EQ(host.op_data, 32u);
  EXPECT_EQ(host.persistent_buffers, (std::vector<uint64_t>{8, 2048}));
  EXPECT_EQ(RequestsOf(kMcu, overlap_add).op_data, 24u);
  EXPECT_EQ(FailureOf(overlap_add), "passes");
}

// stacker.cc: TFLMSignalStackerParams (56 / 36) and Init's circular buffer of num_channels x
// (left + right + 1) values.
TEST(TflmSignalKernels, StackerStateHoldsItsContext) {
  const Subgraph stacker = CustomOpGraph(
      "SignalStacker",
      {ArenaTensor({40}, T::kInt16), ArenaTensor({120}, T::kInt16), ArenaTensor({}, T::kBool)}, {0},
      {1, 2}, Options([](flexbuffers::Builder& b) {
        b.Int("num_channels", 40);
        b.Int("stacker_left_context", 1);
        b.Int("stacker_right_context", 1);
        b.Int("stacker_step", 1);
      }));
  EXPECT_EQ(RequestsOf(kHost, stacker).op_data, 56u);
  EXPECT_EQ(RequestsOf(kHost, stacker).init_buffers, (std::vector<uint64_t>{520}));
  EXPECT_EQ(RequestsOf(kMcu, stacker).op_data, 36u);
  EXPECT_EQ(RequestsOf(kMcu, stacker).init_buffers, (std::vector<uint64_t>{504}));
}

// window.cc, energy.cc, filter_bank_log.cc, pcan.cc keep two or one int32 of options; the
// FFT auto scale and filter-bank square root kernels have no Init.
TEST(TflmSignalKernels, SmallKernelsOpData) {
  const Subgraph window = CustomOpGraph(
      "SignalWindow",
      {ArenaTensor({400}, T::kInt16), Constant({400}, T::kInt16), ArenaTensor({400}, T::kInt16)},
      {0, 1}, {2}, Options([](flexbuffers::Builder& b) { b.Int("shift", 12); }));
  EXPECT_EQ(RequestsOf(kMcu, window).op_data, 8u);
  const Subgraph log = CustomOpGraph("SignalFilterBankLog",
                                     {ArenaTensor({40}, T::kUInt32), ArenaTensor({40}, T::kInt16)},
                                     {0}, {1}, Options([](flexbuffers::Builder& b) {
                                       b.Int("input_correction_bits", 3);
                                       b.Int("output_scale", 1600);
                                     }));
  EXPECT_EQ(RequestsOf(kHost, log).op_data, 8u);
  const Subgraph square_root = CustomOpGraph(
      "SignalFilterBankSquareRoot",
      {ArenaTensor({40}, T::kUInt64), ArenaTensor({}, T::kInt32), ArenaTensor({40}, T::kUInt32)},
      {0, 1}, {2}, {});
  EXPECT_EQ(RequestsOf(kHost, square_root).op_data, 0u);
  EXPECT_EQ(FailureOf(square_root), "passes");
}

// Prepare's type and rank checks, with TFLM's lines.
TEST(TflmSignalKernels, PrepareRefusalsAreTflmLines) {
  const Subgraph window = CustomOpGraph(
      "SignalWindow",
      {ArenaTensor({400}, T::kFloat32), Constant({400}, T::kInt16), ArenaTensor({400}, T::kInt16)},
      {0, 1}, {2}, Options([](flexbuffers::Builder& b) { b.Int("shift", 12); }));
  EXPECT_EQ(FailureOf(window), "input->type != kTfLiteInt16 (FLOAT32 != INT16) (window.cc)");
  const Subgraph energy = CustomOpGraph(
      "SignalEnergy", {ArenaTensor({1, 514}, T::kInt16), ArenaTensor({257}, T::kUInt32)}, {0}, {1},
      Options([](flexbuffers::Builder& b) {
        b.Int("end_index", 256);
        b.Int("start_index", 0);
      }));
  EXPECT_EQ(FailureOf(energy), "NumDimensions(input) != 1 (2 != 1) (energy.cc)");
  const Subgraph pcan = CustomOpGraph(
      "SignalPCAN",
      {ArenaTensor({40}, T::kUInt32), ArenaTensor({32}, T::kUInt32), Constant({125}, T::kInt16),
       ArenaTensor({40}, T::kUInt32)},
      {0, 1, 2}, {3}, Options([](flexbuffers::Builder& b) { b.Int("snr_shift", 6); }));
  EXPECT_EQ(FailureOf(pcan), "input_elems != noise_elems (40 != 32) (pcan.cc)");
  const Subgraph scale = CustomOpGraph(
      "SignalFftAutoScale",
      {ArenaTensor({400}, T::kInt16), ArenaTensor({400}, T::kInt16), ArenaTensor({1}, T::kInt32)},
      {0}, {1, 2}, {});
  EXPECT_EQ(FailureOf(scale), "NumDimensions(scale_bit) != 0 (1 != 0) (fft_auto_scale_common.cc)");
  const Subgraph stacker =
      CustomOpGraph("SignalStacker", {ArenaTensor({40}, T::kInt16)}, {0}, {}, {});
  EXPECT_EQ(FailureOf(stacker), "NumOutputs(node) != 2 (0 != 2) (stacker.cc)");
}

// A micro-frontend chain written as a .tflite and read back: window, FFT auto scale, int16
// RFFT, energy, filter bank, its square root, spectral subtraction, PCAN, log and stacker.
Model FrontendModel() {
  ModelBuilder b("signal_frontend");
  b.AddSubgraph("main");
  auto tensor = [&](const char* name, T type, std::vector<int32_t> shape) {
    return b.AddTensor(0, name, type, std::move(shape));
  };
  auto int16_constant = [&](const char* name, int32_t n) {
    return b.AddConstant(0, name, T::kInt16, {n}, std::vector<uint8_t>(2 * n, 0));
  };
  const int32_t audio = tensor("audio", T::kInt16, {400});
  const int32_t window = int16_constant("window", 400);
  const int32_t windowed = tensor("windowed", T::kInt16, {400});
  const int32_t scaled = tensor("scaled", T::kInt16, {400});
  const int32_t scale_bits = tensor("scale_bits", T::kInt32, {});
  const int32_t spectrum = tensor("spectrum", T::kInt16, {514});
  const int32_t energy = tensor("energy", T::kUInt32, {257});
  std::vector<int32_t> bank_inputs = {energy, int16_constant("weights", 256),
                                      int16_constant("unweights", 256)};
  for (const char* name : {"frequency_starts", "weight_starts", "widths"}) {
    bank_inputs.push_back(int16_constant(name, 41));
  }
  const int32_t bank = tensor("bank", T::kUInt64, {40});
  const int32_t root = tensor("root", T::kUInt32, {40});
  const int32_t clean = tensor("clean", T::kUInt32, {40});
  const int32_t noise = tensor("noise", T::kUInt32, {40});
  const int32_t lut = int16_constant("gain_lut", 125);
  const int32_t gained = tensor("gained", T::kUInt32, {40});
  const int32_t logs = tensor("log", T::kInt16, {40});
  const int32_t stacked = tensor("stacked", T::kInt16, {120});
  const int32_t valid = tensor("valid", T::kBool, {});
  b.AddCustomNode(0, "SignalWindow", {audio, window}, {windowed},
                  Options([](flexbuffers::Builder& f) { f.Int("shift", 12); }));
  b.AddCustomNode(0, "SignalFftAutoScale", {windowed}, {scaled, scale_bits},
                  std::vector<uint8_t>{});
  b.AddCustomNode(0, "SignalRfft", {scaled}, {spectrum}, Options([](flexbuffers::Builder& f) {
                    f.Int("T", 7);
                    f.Int("fft_length", 512);
                  }));
  b.AddCustomNode(0, "SignalEnergy", {spectrum}, {energy}, Options([](flexbuffers::Builder& f) {
                    f.Int("end_index", 256);
                    f.Int("start_index", 4);
                  }));
  b.AddCustomNode(0, "SignalFilterBank", bank_inputs, {bank},
                  Options([](flexbuffers::Builder& f) { f.Int("num_channels", 40); }));
  b.AddCustomNode(0, "SignalFilterBankSquareRoot", {bank, scale_bits}, {root},
                  std::vector<uint8_t>{});
  b.AddCustomNode(0, "SignalFilterBankSpectralSubtraction", {root}, {clean, noise},
                  Options([](flexbuffers::Builder& f) {
                    f.Int("alternate_one_minus_smoothing", 0);
                    f.Int("alternate_smoothing", 0);
                    f.Bool("clamping", false);
                    f.Int("min_signal_remaining", 655);
                    f.Int("num_channels", 40);
                    f.Int("one_minus_smoothing", 15729);
                    f.Int("smoothing", 655);
                    f.Int("smoothing_bits", 10);
                    f.Int("spectral_subtraction_bits", 14);
                  }));
  b.AddCustomNode(0, "SignalPCAN", {clean, noise, lut}, {gained},
                  Options([](flexbuffers::Builder& f) { f.Int("snr_shift", 6); }));
  b.AddCustomNode(0, "SignalFilterBankLog", {gained}, {logs}, Options([](flexbuffers::Builder& f) {
                    f.Int("input_correction_bits", 3);
                    f.Int("output_scale", 1600);
                  }));
  b.AddCustomNode(0, "SignalStacker", {logs}, {stacked, valid},
                  Options([](flexbuffers::Builder& f) {
                    f.Int("num_channels", 40);
                    f.Int("stacker_left_context", 1);
                    f.Int("stacker_right_context", 1);
                    f.Int("stacker_step", 1);
                  }));
  b.SetInputs(0, {audio});
  b.SetOutputs(0, {stacked, valid});
  SyntheticModel synthetic = std::move(b).Finish();
  const std::vector<uint8_t> bytes = WriteTflite(synthetic.model, synthetic.data);
  auto model = ParseTflite(bytes, "signal_frontend.tflite");
  EXPECT_TRUE(model.ok()) << model.status().message();
  return model.ok() ? std::move(model).value() : Model{};
}

// The head, by GreedyMemoryPlanner's rules: the two 1,040-byte spectra and the RFFT's 1,024-byte
// scratch at 0 and 1,040, the three 800-byte frames around them, and the 16-byte scale bits,
// alive from the auto scale to the square root, above everything it overlaps (2,880 + 16). The
// model tail on a 64-bit host: 21 TfLiteEvalTensor (504), 10 NodeAndRegistration (880), the
// kernels' OpData and Init state, each 16-aligned (4,176: the kiss state 2,848, the filter bank's
// work area 336, the noise estimate 160, the stacker's circular buffer 528, OpData 304), one
// ScratchBufferHandle (8), the input and output arrays (8 + 16) and three TfLiteTensor (336).
// These follow the kernels' source only: no reference here measures a Signal model.
TEST(TflmSignalKernels, FrontendChainReplaysFromATfliteFile) {
  const Model model = FrontendModel();
  ASSERT_EQ(model.subgraphs.size(), 1u);
  auto host = ReplayMicroAllocator(model, kHost);
  ASSERT_TRUE(host.ok()) << host.status().message();
  EXPECT_EQ(host->head, 2896u);
  EXPECT_EQ(host->tail, 5928u);
  EXPECT_EQ(host->scratch_buffer_count, 1u);
  auto mcu = ReplayMicroAllocator(model, kMcu);
  ASSERT_TRUE(mcu.ok()) << mcu.status().message();
  EXPECT_EQ(mcu->head, 2896u);
  EXPECT_EQ(mcu->tail, 5004u);
  ASSERT_FALSE(host->resolver.empty());
  EXPECT_EQ(host->resolver[0].method, "AddWindow");
}

}  // namespace
}  // namespace tfa::tflm
