// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IENS} from "./Interfaces.sol";
import {ResolutionLib} from "./ResolutionLib.sol";

/// Stands for ENSv2's ENSV1Resolver (ensdomains/contracts-v2 at 5677359d, an AbstractMirrorResolver): the resolver
/// ENSv2 gives a name that still lives in ENSv1 (premigrated `.eth` names, ENSv1 subnames not migrated yet), so that
/// resolving it in ENSv2 answers what ENSv1 answers.
///
/// Kept, with the real signatures: `resolve(name, data)` (ENSIP-10's IExtendedResolver) finds the name's ENSv1
/// resolver as ENSIP-10 does (the resolver of the name's own node in the ENSv1 registry, else of its nearest ancestor
/// that has one), calls it (`resolve(name, data)` if it is extended, else `data` itself) and returns its answer or
/// passes its revert on; `multicall(bytes[])` data is asked call by call and answered as `bytes[]` with each answer or
/// error in place. `getResolver(name)` answers that resolver and `offchain` false (ICompositeResolver);
/// `requiresOffchain` is false; ERC-165 for IExtendedResolver, ICompositeResolver and ERC-7996, whose
/// `eth.ens.resolver.extended.multicall` feature it has. A name without a resolver, or whose resolver has no code,
/// reverts `UnreachableName(name)`.
///
/// Differs: a resolver that is not extended answers only for its own name, as ENSIP-10 says; for a name below it this
/// reverts `UnreachableName(name)` where the real contract would call it with the name's node anyway.
/// Left out: CCIP-Read (no batch gateway provider: the devnet's ENSv1 resolvers answer onchain; an `OffchainLookup`
/// from one is passed on as it came).
contract ENSV1Resolver {
    error UnreachableName(bytes name);

    IENS public immutable REGISTRY_V1;

    constructor(IENS registryV1) {
        REGISTRY_V1 = registryV1;
    }

    function getResolver(bytes calldata name) external view returns (address resolver, bool offchain) {
        (resolver,) = _findResolver(name);
        offchain = false;
    }

    function requiresOffchain(bytes calldata) external pure returns (bool) {
        return false;
    }

    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory) {
        (address resolver, bool exact) = _findResolver(name);
        if (resolver.code.length == 0) revert UnreachableName(name);
        bool extended = ResolutionLib.answersInterface(resolver, ResolutionLib.EXTENDED_RESOLVER);
        if (!extended && !exact) revert UnreachableName(name);
        if (ResolutionLib.isMulticall(data)) {
            bytes[] memory calls = ResolutionLib.multicallCalls(data);
            for (uint256 i = 0; i < calls.length; i++) {
                (bool ok, bytes memory answer) = _ask(resolver, extended, name, calls[i]);
                if (ok && extended && answer.length != 0) answer = abi.decode(answer, (bytes));
                calls[i] = answer;
            }
            return abi.encode(calls);
        }
        (bool success, bytes memory response) = _ask(resolver, extended, name, data);
        if (!success) ResolutionLib.rethrow(response);
        return extended ? abi.decode(response, (bytes)) : response;
    }

    function supportsFeature(bytes4 feature) external pure returns (bool) {
        return feature == bytes4(keccak256("eth.ens.resolver.extended.multicall"));
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 // ERC-165
            || id == ResolutionLib.EXTENDED_RESOLVER
            || id == (this.getResolver.selector ^ this.requiresOffchain.selector) // ICompositeResolver's own functions
            || id == this.supportsFeature.selector; // ERC-7996
    }

    /// ENSIP-10 over the ENSv1 registry: the resolver of the deepest node of `name` (the name itself, else its nearest
    /// ancestor) that has one, and whether that node is the name's own.
    function _findResolver(bytes calldata name) private view returns (address resolver, bool exact) {
        uint256[] memory offsets = ResolutionLib.labelOffsets(name, 0);
        bytes32 node;
        for (uint256 i = offsets.length - 1; i > 0; i--) {
            (bytes32 labelHash,) = ResolutionLib.labelHashAt(name, offsets[i - 1]);
            node = keccak256(abi.encodePacked(node, labelHash));
            address found = REGISTRY_V1.resolver(node);
            if (found != address(0)) (resolver, exact) = (found, i == 1);
        }
    }

    function _ask(address resolver, bool extended, bytes calldata name, bytes memory call)
        private
        view
        returns (bool, bytes memory)
    {
        return resolver.staticcall(extended ? abi.encodeWithSelector(ResolutionLib.EXTENDED_RESOLVER, name, call) : call);
    }
}
