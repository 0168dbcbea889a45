// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// What our ENSv2 resolution contracts (PermissionedResolver, UniversalResolverV2, ENSV1Resolver) share: reading a
/// DNS-encoded name (each label is a length byte and that many bytes, the name ends with a zero byte and nothing after
/// it), namehashes of such names, and the ERC-165 probe a universal resolver uses to tell an extended resolver.
/// A label's hash is keccak256 of its bytes as they are, as ens-contracts' NameCoder reads names at contracts-v2's pin:
/// a `[64 hex]` label is not read as an encoded labelhash.
library ResolutionLib {
    /// The same error (name and argument) as ens-contracts' NameCoder, which viem knows.
    error DNSDecodingFailed(bytes dns);

    /// ENSIP-10's IExtendedResolver: `resolve(bytes,bytes)`.
    bytes4 internal constant EXTENDED_RESOLVER = 0x9061b923;
    /// `multicall(bytes[])`: calldata that carries several resolver calls.
    bytes4 internal constant MULTICALL = 0xac9650d8;

    /// The length of the label at `offset` and where the next one starts. Reverts `DNSDecodingFailed` when the name
    /// ends before the label does, or when anything follows the terminating zero.
    function nextLabel(bytes memory name, uint256 offset) internal pure returns (uint256 size, uint256 next) {
        if (offset >= name.length) revert DNSDecodingFailed(name);
        size = uint8(name[offset]);
        next = offset + 1 + size;
        bool bad = size == 0 ? next != name.length : next >= name.length;
        if (bad) revert DNSDecodingFailed(name);
    }

    /// keccak256 of the label at `offset` (zero for the terminating root label) and where the next label starts.
    function labelHashAt(bytes memory name, uint256 offset) internal pure returns (bytes32 labelHash, uint256 next) {
        uint256 size;
        (size, next) = nextLabel(name, offset);
        if (size == 0) return (bytes32(0), next);
        assembly {
            labelHash := keccak256(add(add(name, 33), offset), size)
        }
    }

    /// The label at `offset` as a string (what an ENSv2 registry's `getResolver(label)` takes).
    function labelAt(bytes memory name, uint256 offset) internal pure returns (string memory) {
        (uint256 size,) = nextLabel(name, offset);
        bytes memory label = new bytes(size);
        for (uint256 i = 0; i < size; i++) {
            label[i] = name[offset + 1 + i];
        }
        return string(label);
    }

    /// The offset of every label of `name[from:]`, the root's terminating zero included (last).
    function labelOffsets(bytes memory name, uint256 from) internal pure returns (uint256[] memory offsets) {
        uint256 count = 1;
        (uint256 size, uint256 at) = nextLabel(name, from);
        while (size != 0) {
            count++;
            (size, at) = nextLabel(name, at);
        }
        offsets = new uint256[](count);
        at = from;
        for (uint256 i = 0; i < count; i++) {
            offsets[i] = at;
            (, at) = nextLabel(name, at);
        }
    }

    /// The ENS namehash of `name[offset:]` (zero for the root).
    function namehash(bytes memory name, uint256 offset) internal pure returns (bytes32 node) {
        uint256[] memory offsets = labelOffsets(name, offset);
        // From the top-level label down to the first one; the last offset is the root's zero.
        for (uint256 i = offsets.length - 1; i > 0; i--) {
            (bytes32 labelHash,) = labelHashAt(name, offsets[i - 1]);
            node = keccak256(abi.encodePacked(node, labelHash));
        }
    }

    /// Whether `target` answers ERC-165's `supportsInterface(id)` with true, without first asking whether it speaks
    /// ERC-165 at all: an account without code, a revert or a short answer count as no. The call gets 30,000 gas,
    /// as ERC-165 allows.
    function answersInterface(address target, bytes4 id) internal view returns (bool) {
        (bool ok, bytes memory answer) = target.staticcall{gas: 30_000}(abi.encodeWithSelector(0x01ffc9a7, id));
        return ok && answer.length >= 32 && abi.decode(answer, (uint256)) != 0;
    }

    /// ERC-165's full check: `target` speaks ERC-165 (yes to its own id, no to 0xffffffff) and supports `id`.
    function supportsInterface(address target, bytes4 id) internal view returns (bool) {
        return answersInterface(target, 0x01ffc9a7) && !answersInterface(target, 0xffffffff) && answersInterface(target, id);
    }

    /// Whether `data` is `multicall(bytes[])` calldata.
    function isMulticall(bytes memory data) internal pure returns (bool) {
        return data.length >= 4 && bytes4(data) == MULTICALL;
    }

    /// The calls inside `multicall(bytes[])` calldata.
    function multicallCalls(bytes memory data) internal pure returns (bytes[] memory) {
        bytes memory args = new bytes(data.length - 4);
        for (uint256 i = 0; i < args.length; i++) {
            args[i] = data[i + 4];
        }
        return abi.decode(args, (bytes[]));
    }

    /// Reverts with `errorData` exactly as it came (a callee's revert passed on unchanged).
    function rethrow(bytes memory errorData) internal pure {
        assembly {
            revert(add(errorData, 32), mload(errorData))
        }
    }
}
