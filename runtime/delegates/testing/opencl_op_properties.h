// The OpenCL kernels' properties, one function per op or op family, each a rapidcheck property
// run per op by opencl_ops_property_test.cc's table; defined in runtime/delegates/opencl/
// *_property_test.cc by op family.
#ifndef RUNTIME_DELEGATES_TESTING_OPENCL_OP_PROPERTIES_H_
#define RUNTIME_DELEGATES_TESTING_OPENCL_OP_PROPERTIES_H_

#include <string>

namespace tfa::runtime::opencl_property {

// opencl_conv_property_test.cc
void Conv2DMatchesCpu();
void DepthwiseConv2DMatchesCpu();
void TransposeConvMatchesCpu();
void Convolution2DTransposeBiasMatchesCpu();
void FullyConnectedMatchesCpu();
void BatchMatmulMatchesReference();

// opencl_elementwise_property_test.cc
void BinaryOpMatchesCpu(const std::string& op);
void PreluMatchesCpu();
void UnaryOpMatchesCpu(const std::string& op);
void AddNMatchesReference();
void ComparisonMatchesReference(const std::string& name);
void LogicalAndMatchesReference();
void SelectMatchesReference(const std::string& op);
void CastMatchesCpu();
void FakeQuantMatchesCpuRoundTrip(const std::string& op);

// opencl_pool_reduce_property_test.cc
void Pool2DMatchesCpu(const std::string& op);
void MaxPoolingWithArgmaxMatchesCpu(const std::string& op);
void MaxUnpoolingMatchesCpu(const std::string& op);
void ResizeMatchesCpu(const std::string& op);
void PadMatchesCpu(const std::string& op);
void MirrorPadMatchesCpu();
void ReductionMatchesCpu(const std::string& op);
void SoftmaxMatchesCpu();

// opencl_move_property_test.cc
void ConcatenationMatchesCpu();
void ReshapeMatchesCpu(const std::string& op);
void SliceMatchesCpu();
void StridedSliceMatchesCpu();
void TransposeMatchesCpu();
void DepthSpaceShuffleMatchesCpu(const std::string& op);
void GatherMatchesCpu();
void SplitMatchesCpu(const std::string& op);
void PackOrUnpackMatchesReference(const std::string& op);
void TileMatchesReference();

}  // namespace tfa::runtime::opencl_property

#endif  // RUNTIME_DELEGATES_TESTING_OPENCL_OP_PROPERTIES_H_
