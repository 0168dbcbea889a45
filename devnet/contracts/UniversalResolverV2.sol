// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IRegistry} from "./RegistryV2Interfaces.sol";
import {ResolutionLib} from "./ResolutionLib.sol";

/// Stands for ENSv2's UniversalResolverV2 (ensdomains/contracts-v2 at 5677359d, on ens-contracts'
/// AbstractUniversalResolver), the contract viem's `getEnsAddress`/`getEnsText` and our resolution API ask.
///
/// Kept:
/// - `findResolver(name)` as contracts-v2's LibRegistry walks ENSv2: from the root registry down, top-level label
///   first, each registry met is asked `getResolver(label)` (a non-zero answer is remembered with the byte offset of
///   its label, so the deepest wins) and `getSubregistry(label)`; once a registry has no subregistry for a label the
///   walk asks nothing more. It answers that resolver (or zero), the namehash of the whole name, and the offset (the
///   offset of the root's terminating zero when no resolver was found);
/// - `resolve(name, data)` and `resolveWithGateways(name, data, gateways)`: `ResolverNotFound(name)` without a
///   resolver; an extended resolver (ENSIP-10, by ERC-165) is asked `resolve(name, data)` and its answer unwrapped;
///   any other only for its own name (offset 0, else `ResolverNotFound`) and only if it has code
///   (`ResolverNotContract`), with `data` as it is. An empty answer reverts `UnsupportedResolverProfile(selector)`,
///   which a resolver's own revert of that error does too; any other revert becomes `ResolverError(errorData)`.
///   `multicall(bytes[])` data is asked call by call and answered as `bytes[]`, each answer (unwrapped) or error in
///   place. These are the errors viem reads as "no record".
///
/// Left out: CCIP-Read. The devnet's resolvers answer onchain, so the batch gateway provider, the gateway list
/// (`gateways` is accepted and unused) and the callbacks are not here; a resolver's `OffchainLookup` is passed on as
/// it came. Also left out: reverse resolution (`reverse`, `reverseWithGateways`: viem's `getEnsName`), `requireResolver`,
/// `resolveWithResolver` and the registry views `findCanonicalName`, `findCanonicalRegistry`, `findExactRegistry`,
/// `findRegistries`.
contract UniversalResolverV2 {
    error ResolverNotFound(bytes name);
    error ResolverNotContract(bytes name, address resolver);
    error UnsupportedResolverProfile(bytes4 selector);
    error ResolverError(bytes errorData);

    /// EIP-3668's `OffchainLookup(address,string[],bytes,bytes4,bytes)`.
    bytes4 private constant OFFCHAIN_LOOKUP = 0x556f1830;

    IRegistry public immutable ROOT_REGISTRY;

    constructor(IRegistry rootRegistry) {
        ROOT_REGISTRY = rootRegistry;
    }

    function findResolver(bytes memory name) public view returns (address resolver, bytes32 node, uint256 offset) {
        uint256[] memory offsets = ResolutionLib.labelOffsets(name, 0);
        offset = offsets[offsets.length - 1];
        IRegistry registry = ROOT_REGISTRY;
        // From the top-level label (just before the root's zero) to the first label.
        for (uint256 i = offsets.length - 1; i > 0; i--) {
            uint256 at = offsets[i - 1];
            (bytes32 labelHash,) = ResolutionLib.labelHashAt(name, at);
            node = keccak256(abi.encodePacked(node, labelHash));
            if (address(registry) == address(0)) continue;
            string memory label = ResolutionLib.labelAt(name, at);
            address found = registry.getResolver(label);
            if (found != address(0)) (resolver, offset) = (found, at);
            registry = registry.getSubregistry(label);
        }
    }

    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory, address) {
        return _resolve(name, data);
    }

    function resolveWithGateways(bytes calldata name, bytes calldata data, string[] calldata)
        external
        view
        returns (bytes memory, address)
    {
        return _resolve(name, data);
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7; // ERC-165
    }

    function _resolve(bytes calldata name, bytes calldata data) private view returns (bytes memory result, address resolver) {
        uint256 offset;
        (resolver,, offset) = findResolver(name);
        if (resolver == address(0)) revert ResolverNotFound(name);
        bool extended = ResolutionLib.answersInterface(resolver, ResolutionLib.EXTENDED_RESOLVER);
        if (!extended) {
            if (offset != 0) revert ResolverNotFound(name);
            if (resolver.code.length == 0) revert ResolverNotContract(name, resolver);
        }
        if (ResolutionLib.isMulticall(data)) {
            bytes[] memory calls = ResolutionLib.multicallCalls(data);
            for (uint256 i = 0; i < calls.length; i++) {
                (bool ok, bytes memory answer) = _ask(resolver, extended, name, calls[i]);
                if (ok && extended && answer.length != 0) answer = abi.decode(answer, (bytes));
                calls[i] = answer;
            }
            return (abi.encode(calls), resolver);
        }
        (bool success, bytes memory response) = _ask(resolver, extended, name, data);
        if (!success) {
            bytes4 errorSelector = bytes4(response);
            if (response.length >= 4 && (errorSelector == UnsupportedResolverProfile.selector || errorSelector == OFFCHAIN_LOOKUP)) {
                ResolutionLib.rethrow(response);
            }
            revert ResolverError(response);
        }
        if (response.length == 0) revert UnsupportedResolverProfile(bytes4(data));
        result = extended ? abi.decode(response, (bytes)) : response;
    }

    /// Calls the resolver: `resolve(name, call)` when it is extended, else `call` itself.
    function _ask(address resolver, bool extended, bytes calldata name, bytes memory call)
        private
        view
        returns (bool, bytes memory)
    {
        return resolver.staticcall(extended ? abi.encodeWithSelector(ResolutionLib.EXTENDED_RESOLVER, name, call) : call);
    }
}
