"""Generated gRPC/protobuf code for translator.v1 (make proto); do not edit."""
