// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IUUPSProxy {
    error ImplementationCannotBeZeroAddress();

    error AlreadyInitialized();

    error ImplementationNotSet();

    error InvalidUpgradeTarget(address currentImplementation, address newImplementation);

    error UpgradeNotAllowedInContext();

    function initialize(address implementation, bytes calldata data) external payable;

    function getVerifiableProxyData() external view returns (bytes32 salt, address implementation);

    function verifiableProxyFactory() external view returns (address);
}
