"""Server reflection in both of its protocol versions.

grpcio-reflection serves only ``grpc.reflection.v1alpha``. Clients that ask for ``grpc.reflection.v1`` first
(grpcurl, and tools built on grpc-go's or grpc-java's reflection clients) get UNIMPLEMENTED from it; those without
a fallback to v1alpha stop there. v1 is v1alpha under another package name: the same messages, field for field, so
the same bytes on the wire. The v1 service therefore runs v1alpha's servicer on its messages, and the v1
descriptors are v1alpha's renamed, so that a client can also describe the v1 service itself.
"""

from __future__ import annotations

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc

V1_PACKAGE = "grpc.reflection.v1"
V1_SERVICE_NAME = f"{V1_PACKAGE}.ServerReflection"


def _register_v1_descriptors() -> None:
    """Add grpc/reflection/v1/reflection.proto to the default descriptor pool (which reflection answers from),
    built from v1alpha's file with the package renamed."""
    pool = descriptor_pool.Default()
    try:
        pool.FindServiceByName(V1_SERVICE_NAME)
        return  # already there (registered before, or by a later grpcio-reflection)
    except KeyError:
        pass
    alpha = reflection_pb2.DESCRIPTOR
    proto = descriptor_pb2.FileDescriptorProto()
    alpha.CopyToProto(proto)
    proto.name = "grpc/reflection/v1/reflection.proto"
    proto.package = V1_PACKAGE
    proto.ClearField("options")  # v1alpha's: deprecated, and its Java and Go package names
    old, new = f".{alpha.package}.", f".{V1_PACKAGE}."
    for message in proto.message_type:
        for field in message.field:
            if field.type_name.startswith(old):
                field.type_name = new + field.type_name[len(old):]
    for service in proto.service:
        for method in service.method:
            method.input_type = new + method.input_type[len(old):]
            method.output_type = new + method.output_type[len(old):]
    pool.Add(proto)


def enable(server: grpc.aio.Server, service_names: list[str]) -> None:
    """Serve reflection for service_names (and for both reflection services) over v1alpha and v1."""
    _register_v1_descriptors()
    servicer = reflection.aio.ReflectionServicer([*service_names, reflection.SERVICE_NAME, V1_SERVICE_NAME])
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    v1 = grpc.stream_stream_rpc_method_handler(servicer.ServerReflectionInfo,
                                               request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
                                               response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(V1_SERVICE_NAME, {"ServerReflectionInfo": v1}),))
