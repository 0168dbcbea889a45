// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PermissionedRegistry} from "./PermissionedRegistry.sol";
import {ProxyInitializable} from "./VerifiableFactory.sol";

/// Stands for contracts-v2's UserRegistry: a PermissionedRegistry anyone deploys for a name's subnames, as a proxy
/// through the VerifiableFactory, initialized with its admin's root roles. Left out: UUPS upgrades.
contract UserRegistry is PermissionedRegistry, ProxyInitializable {
    error InvalidOwner();

    constructor() PermissionedRegistry(address(0), 0) {}

    function initialize(address admin, uint256 roleBitmap) external initializer {
        if (admin == address(0)) revert InvalidOwner();
        _grantRoles(ROOT_RESOURCE, roleBitmap, admin, false);
    }
}
