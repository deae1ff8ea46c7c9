#include "libanalysis/model/builtin_kernel_flags.h"

#include "libanalysis/model/builtin_ops.h"
#include "libanalysis/model/graph.h"

namespace tfa {
namespace {

// BuiltinOperator values used below.
enum : int32_t {
  kAdd = 0, kMul = 18, kReshape = 22, kSoftmax = 25, kSub = 41, kDiv = 42, kSqueeze = 43,
  kExpandDims = 70, kIf = 118, kWhile = 119, kCallOnce = 129, kHashtable = 136,
  kHashtableFind = 137, kHashtableImport = 138, kHashtableSize = 139, kVarHandle = 142,
  kReadVariable = 143, kAssignVariable = 144, kRandomStandardNormal = 146, kRandomUniform = 148,
  kMultinomial = 149, kDynamicUpdateSlice = 151, kBitcast = 159,
};

}  // namespace

uint32_t BuiltinInplaceFlags(int32_t code) {
  switch (code) {
    // tflite/kernels/add.cc, sub.cc, mul.cc, div.cc: output may reuse input 0 or input 1.
    case kAdd:
    case kSub:
    case kMul:
    case kDiv:
      return kInplaceInput0Shared | kInplaceInput1Shared;
    // tflite/kernels/reshape.cc, squeeze.cc, expand_dims.cc, bitcast.cc: the data is not
    // modified, only reinterpreted, so the output may alias input 0.
    case kReshape:
    case kSqueeze:
    case kExpandDims:
    case kBitcast:
      return kInplaceOpDataUnmodified | kInplaceInput0Shared;
    // tflite/kernels/activations.cc (softmax), dynamic_update_slice.cc.
    case kSoftmax:
    case kDynamicUpdateSlice:
      return kInplaceInput0Shared;
    default:
      return kInplaceNone;
  }
}

bool BuiltinHasSideEffect(int32_t code) {
  switch (code) {
    case kVarHandle:
    case kReadVariable:
    case kAssignVariable:
    case kHashtable:
    case kHashtableFind:
    case kHashtableImport:
    case kHashtableSize:
    case kRandomStandardNormal:
    case kRandomUniform:
    case kMultinomial:
    case kCallOnce:
    case kIf:
    case kWhile:
      return true;
    default:
      return false;
  }
}

}  // namespace tfa
