// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// Stands for ENS's VerifiableFactory: deploys a proxy of an implementation at an address fixed by the sender and a
/// salt (CREATE2), calls it with the given initialization data in the same transaction and emits `ProxyDeployed`
/// with the real signature. Kept: anyone may deploy; one address per (sender, salt); user registries and resolvers
/// found by an indexer at addresses no manifest lists. Left out: upgrades (the real proxies are UUPS; ours are EIP-1167
/// minimal proxies, which forward every call to the implementation and cannot be upgraded).
contract VerifiableFactory {
    event ProxyDeployed(address indexed sender, address indexed proxyAddress, uint256 salt, address implementation);

    error ProxyDeploymentFailed();

    function deployProxy(address implementation, uint256 salt, bytes calldata data) external returns (address proxy) {
        // EIP-1167's creation code: returns a runtime that DELEGATECALLs `implementation` with the calldata.
        bytes memory code = abi.encodePacked(
            hex"3d602d80600a3d3981f3363d3d373d3d3d363d73", implementation, hex"5af43d82803e903d91602b57fd5bf3"
        );
        bytes32 outerSalt = keccak256(abi.encode(msg.sender, salt));
        assembly {
            proxy := create2(0, add(code, 0x20), mload(code), outerSalt)
        }
        if (proxy == address(0)) revert ProxyDeploymentFailed();
        emit ProxyDeployed(msg.sender, proxy, salt, implementation);
        if (data.length > 0) {
            (bool ok, bytes memory reason) = proxy.call(data);
            if (!ok) {
                assembly {
                    revert(add(reason, 0x20), mload(reason))
                }
            }
        }
    }
}

/// An implementation behind minimal proxies: `initializer` runs once per proxy and never on the implementation itself
/// (its constructor marks the implementation's own storage initialized; a proxy's storage starts empty).
abstract contract ProxyInitializable {
    error AlreadyInitialized();

    bool private _initialized;

    constructor() {
        _initialized = true;
    }

    modifier initializer() {
        if (_initialized) revert AlreadyInitialized();
        _initialized = true;
        _;
    }
}
